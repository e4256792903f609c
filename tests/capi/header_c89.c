/* Compiled with -std=c89 -pedantic -Werror: the public header is plain C. */
#include "rescue.h"

int rescue_header_c89_check(void) {
  rescue_problem* p = 0;
  rescue_status st = rescue_problem_new(&p);
  rescue_problem_free(p);
  return (int)st + RESCUE_VERSION_NUMBER;
}
