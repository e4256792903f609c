/* From C any int converts to rescue_status: unknown codes must get a name, and reading
 * them must not be undefined in the library (checked under UBSan by .ci/sanitize). */
#include <stdio.h>
#include <string.h>

#include "rescue.h"

static int named(int code, const char* expected) {
  const char* got = rescue_status_string((rescue_status)code);
  if (got == NULL || strcmp(got, expected) != 0) {
    fprintf(stderr, "rescue_status_string(%d) = \"%s\", expected \"%s\"\n", code, got ? got : "(null)", expected);
    return 0;
  }
  return 1;
}

int main(void) {
  int ok = 1;
  ok &= named(RESCUE_OK, "ok");
  ok &= named(RESCUE_ERR_INTERNAL, "internal error");
  ok &= named(17, "unknown status");
  ok &= named(100, "unknown status");
  ok &= named(12345, "unknown status");
  ok &= named(-1, "unknown status");
  return ok ? 0 : 1;
}
