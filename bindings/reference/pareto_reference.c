/*
 * The cross-language reference: the built-in multi-fidelity problem "branin-currin", seed 7,
 * strategy "cost-aware-random", budget 1000 cost units, every suggestion evaluated noise-free
 * with rescue_problem_evaluate() and observed. Every binding's example runs the same loop and
 * prints its Pareto set as lines "pareto x_1 .. x_d y_1 .. y_M"; this program checks them.
 *
 *   pareto_reference run                      print the reference Pareto set
 *   pareto_reference compare REF FILE         compare the "pareto" lines of FILE to those of REF
 *                                             (the output of "run")
 *   pareto_reference save-checkpoint FILE N   save a checkpoint after N observations
 *   pareto_reference continue FILE            load a checkpoint (from any language), finish the
 *                                             run and check that every observation, before and
 *                                             after the checkpoint, equals the reference run's
 *
 * Values must agree to 1e-12 (relative to max(1, |value|)): same library, same seed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rescue.h"

#define MAX_POINTS 4096

typedef struct {
  int count, width;
  double* v; /* count x width */
} point_set;

static void die(const char* what, const char* msg) {
  fprintf(stderr, "pareto_reference: %s: %s\n", what, msg);
  exit(1);
}

static rescue_problem* reference_problem(void) {
  rescue_problem* p = NULL;
  if (rescue_problem_builtin("branin-currin", &p) != RESCUE_OK) die("builtin", rescue_last_error());
  if (rescue_problem_set_seed(p, 7u) != RESCUE_OK || rescue_problem_set_strategy(p, "cost-aware-random") != RESCUE_OK ||
      rescue_problem_set_budget(p, 1000.0) != RESCUE_OK)
    die("problem", rescue_problem_errmsg(p));
  return p;
}

/* Runs the ask/tell loop until the budget is spent, or stops after max_obs observations (if >= 0). */
static void run_loop(rescue_optimizer* opt, const rescue_problem* p, int max_obs) {
  const int d = rescue_dimension(opt), m = rescue_num_objectives(opt);
  double x[64], y[64], s;
  int ticket, n = 0;
  if (d > 64 || m > 64) die("run", "problem too large for this program");
  while (!rescue_done(opt) && (max_obs < 0 || n < max_obs)) {
    const rescue_status st = rescue_suggest(opt, x, d, &s, &ticket);
    if (st == RESCUE_ERR_BUDGET_EXHAUSTED) break;
    if (st != RESCUE_OK) die("suggest", rescue_errmsg(opt));
    if (rescue_problem_evaluate(p, x, d, s, y, m, NULL, 0, NULL, 0) != RESCUE_OK) die("evaluate", rescue_problem_errmsg(p));
    if (rescue_observe(opt, ticket, y, m, NULL, 0, NULL, 0) != RESCUE_OK) die("observe", rescue_errmsg(opt));
    ++n;
  }
}

static point_set pareto_of(rescue_optimizer* opt) {
  point_set ps;
  const int d = rescue_dimension(opt), m = rescue_num_objectives(opt);
  double *x, *y;
  int i, j;
  if (rescue_pareto(opt, NULL, NULL, 0, &ps.count) != RESCUE_OK) die("pareto", rescue_errmsg(opt));
  ps.width = d + m;
  x = malloc(sizeof(double) * (size_t)(ps.count * d + 1));
  y = malloc(sizeof(double) * (size_t)(ps.count * m + 1));
  ps.v = malloc(sizeof(double) * (size_t)(ps.count * ps.width + 1));
  if (!x || !y || !ps.v) die("pareto", "out of memory");
  if (rescue_pareto(opt, x, y, ps.count, &ps.count) != RESCUE_OK) die("pareto", rescue_errmsg(opt));
  for (i = 0; i < ps.count; ++i) {
    for (j = 0; j < d; ++j) ps.v[i * ps.width + j] = x[i * d + j];
    for (j = 0; j < m; ++j) ps.v[i * ps.width + d + j] = y[i * m + j];
  }
  free(x);
  free(y);
  return ps;
}

/* Every observation as one row: x (d), fidelity, y (M). */
static point_set history_of(const rescue_optimizer* opt) {
  point_set h;
  const int d = rescue_dimension(opt), m = rescue_num_objectives(opt);
  int i;
  h.count = rescue_num_observations(opt);
  h.width = d + 1 + m;
  h.v = malloc(sizeof(double) * (size_t)(h.count * h.width + 1));
  if (!h.v) die("history", "out of memory");
  for (i = 0; i < h.count; ++i) {
    double* row = h.v + i * h.width;
    int failed = 0;
    if (rescue_get_observation(opt, i, row, d, row + d, row + d + 1, m, NULL, 0, &failed) != RESCUE_OK)
      die("observation", rescue_errmsg(opt));
  }
  return h;
}

static point_set reference_history(void) {
  rescue_problem* p = reference_problem();
  rescue_optimizer* opt = NULL;
  point_set h;
  if (rescue_create(p, &opt) != RESCUE_OK) die("create", rescue_last_error());
  run_loop(opt, p, -1);
  h = history_of(opt);
  rescue_destroy(opt);
  rescue_problem_free(p);
  return h;
}

static point_set reference_pareto(void) {
  rescue_problem* p = reference_problem();
  rescue_optimizer* opt = NULL;
  point_set ps;
  if (rescue_create(p, &opt) != RESCUE_OK) die("create", rescue_last_error());
  run_loop(opt, p, -1);
  ps = pareto_of(opt);
  rescue_destroy(opt);
  rescue_problem_free(p);
  return ps;
}

/* Reads the "pareto" lines of a program's output. */
static point_set read_pareto(const char* path, int width) {
  point_set ps;
  char line[8192];
  FILE* f = fopen(path, "r");
  ps.count = 0;
  ps.width = width;
  ps.v = malloc(sizeof(double) * (size_t)(MAX_POINTS * width));
  if (!f) die(path, "cannot open");
  if (!ps.v) die("read", "out of memory");
  while (fgets(line, sizeof line, f)) {
    char *p = line, *end;
    int j;
    while (*p == ' ' || *p == '\t') ++p;
    if (strncmp(p, "pareto", 6) != 0 || (p[6] != ' ' && p[6] != '\t')) continue;
    p += 6;
    if (ps.count == MAX_POINTS) die(path, "too many points");
    for (j = 0; j < width; ++j) {
      const double v = strtod(p, &end);
      if (end == p) die(path, "a \"pareto\" line has too few numbers");
      ps.v[ps.count * width + j] = v;
      p = end;
    }
    strtod(p, &end);
    if (end != p) die(path, "a \"pareto\" line has too many numbers");
    ++ps.count;
  }
  fclose(f);
  return ps;
}

static int same_sets(const point_set* ref, const point_set* got, const char* label, const char* what) {
  int i, j;
  if (ref->count == 0) {
    fprintf(stderr, "%s: the reference is empty; the comparison would prove nothing\n", label);
    return 0;
  }
  if (ref->count != got->count) {
    fprintf(stderr, "%s: %d %s, the reference has %d\n", label, got->count, what, ref->count);
    return 0;
  }
  for (i = 0; i < ref->count; ++i)
    for (j = 0; j < ref->width; ++j) {
      const double a = ref->v[i * ref->width + j], b = got->v[i * ref->width + j];
      if (!(fabs(a - b) <= 1e-12 * fmax(1.0, fabs(a)))) {
        fprintf(stderr, "%s: %s %d value %d is %.17g, the reference has %.17g\n", label, what, i, j, b, a);
        return 0;
      }
    }
  printf("%s: %d %s agree with the C reference to 1e-12\n", label, ref->count, what);
  return 1;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "run";
  int i, j;
  if (strcmp(mode, "run") == 0) {
    point_set ref = reference_pareto();
    const int found = ref.count > 0;
    for (i = 0; i < ref.count; ++i) {
      printf("pareto");
      for (j = 0; j < ref.width; ++j) printf(" %.17g", ref.v[i * ref.width + j]);
      printf("\n");
    }
    free(ref.v);
    return found ? 0 : 1;
  }
  if (strcmp(mode, "compare") == 0 && argc == 4) {
    /* The width is that of the reference file's first line. */
    char line[8192];
    int width = 0;
    FILE* f = fopen(argv[2], "r");
    point_set ref, got;
    int ok;
    if (!f) die(argv[2], "cannot open");
    if (fgets(line, sizeof line, f)) {
      char *p = line + 6, *end;
      for (;;) {
        strtod(p, &end);
        if (end == p) break;
        ++width;
        p = end;
      }
    }
    fclose(f);
    if (width == 0) die(argv[2], "no \"pareto\" line in the reference");
    ref = read_pareto(argv[2], width);
    got = read_pareto(argv[3], width);
    ok = same_sets(&ref, &got, argv[3], "Pareto points");
    free(ref.v);
    free(got.v);
    return ok ? 0 : 1;
  }
  if (strcmp(mode, "save-checkpoint") == 0 && argc == 4) {
    rescue_problem* p = reference_problem();
    rescue_optimizer* opt = NULL;
    if (rescue_create(p, &opt) != RESCUE_OK) die("create", rescue_last_error());
    run_loop(opt, p, atoi(argv[3]));
    if (rescue_save_file(opt, argv[2]) != RESCUE_OK) die("save", rescue_errmsg(opt));
    printf("saved %d observations to %s\n", rescue_num_observations(opt), argv[2]);
    rescue_destroy(opt);
    rescue_problem_free(p);
    return 0;
  }
  if (strcmp(mode, "continue") == 0 && argc == 3) {
    rescue_problem* p = reference_problem();
    rescue_optimizer* opt = NULL;
    point_set ref = reference_history(), got;
    int ok;
    if (rescue_load_file(argv[2], &opt) != RESCUE_OK) die(argv[2], rescue_last_error());
    if (rescue_num_observations(opt) < 1) die(argv[2], "the checkpoint holds no observation");
    run_loop(opt, p, -1);
    got = history_of(opt);
    ok = same_sets(&ref, &got, argv[2], "observations");
    free(ref.v);
    free(got.v);
    rescue_destroy(opt);
    rescue_problem_free(p);
    return ok ? 0 : 1;
  }
  fprintf(stderr, "usage: pareto_reference [run | compare REF FILE | save-checkpoint FILE N | continue FILE]\n");
  return 2;
}
