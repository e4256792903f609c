#include <stdio.h>
#include <string.h>

#include <rescue.h>

int main(void) {
  if (rescue_version_number() != RESCUE_VERSION_NUMBER) return 1;
  printf("rescue %s\n", rescue_version_string());
  return strcmp(rescue_version_string(), RESCUE_VERSION_STRING) == 0 ? 0 : 2;
}
