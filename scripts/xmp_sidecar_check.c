// Drives Sources/CXMP/xmp_sidecar.c outside the package for
// scripts/test-xmp-sidecar.sh:
//   xmp_sidecar_check available
//   xmp_sidecar_check sidecar FILE [rating R] [label L]   one write; "ok" or the error, exit 0 or 1
//   xmp_sidecar_check embed FILE [rating R] [label L]     the same into a JPEG
//   xmp_sidecar_check read FILE...                        what pk_xmp_culling_read finds, one JSON object a file
//   xmp_sidecar_check time DIR RUNS EXISTING              median write times: fresh files in DIR, and
//                                                         EXISTING rewritten RUNS times (a copy in DIR)
//   xmp_sidecar_check race FILE THREADS WRITES            THREADS threads each writing FILE WRITES times
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xmp_culling.h"
#include "xmp_sidecar.h"

static uint8_t *load(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t capacity = 1 << 16, used = 0;
  uint8_t *data = malloc(capacity);
  for (size_t got; data != NULL && (got = fread(data + used, 1, capacity - used, f)) > 0;) {
    used += got;
    if (used == capacity) data = realloc(data, capacity *= 2);
  }
  fclose(f);
  *size = used;
  return data;
}

static int parse_change(int argc, char **argv, pk_xmp_change *change) {
  memset(change, 0, sizeof *change);
  for (int i = 0; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "rating") == 0) change->set_rating = 1, change->rating = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "label") == 0) change->set_label = 1, change->label = atoi(argv[i + 1]);
    else return fprintf(stderr, "unknown: %s\n", argv[i]), 0;
  }
  return 1;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *values, int count) {
  qsort(values, (size_t)count, sizeof *values, by_value);
  return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static int timing(const char *directory, int runs, const char *existing) {
  double *fresh = malloc(sizeof(double) * (size_t)runs), *again = malloc(sizeof(double) * (size_t)runs);
  char path[4096], error[300];
  size_t size;
  uint8_t *original = load(existing, &size);
  if (fresh == NULL || again == NULL || original == NULL) return fprintf(stderr, "cannot load %s\n", existing), 1;
  snprintf(path, sizeof path, "%s/existing.xmp", directory);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(original, 1, size, f) != size || fclose(f) != 0) return perror(path), 1;
  for (int i = 0; i < runs; i++) {
    pk_xmp_change change = {1, i % 7 - 1, 1, i % 6};
    char fresh_path[4200];
    snprintf(fresh_path, sizeof fresh_path, "%s/IMG_%04d.JPG.xmp", directory, i);
    double t = now();
    if (pk_xmp_write_sidecar(fresh_path, &change, error, sizeof error) != 0) return fprintf(stderr, "%s\n", error), 1;
    fresh[i] = now() - t;
    t = now();
    if (pk_xmp_write_sidecar(path, &change, error, sizeof error) != 0) return fprintf(stderr, "%s\n", error), 1;
    again[i] = now() - t;
  }
  printf("median of %d writes: new sidecar %.3f ms, existing darktable sidecar (%zu bytes) %.3f ms\n", runs,
         median(fresh, runs) * 1e3, size, median(again, runs) * 1e3);
  free(fresh);
  free(again);
  free(original);
  return 0;
}

typedef struct {
  const char *path;
  int thread, writes, failures;
  char error[300];
} racer;

static void *race_one(void *argument) {
  racer *r = argument;
  for (int i = 0; i < r->writes; i++) {
    pk_xmp_change change = {1, r->thread % 6, i % 2, (r->thread + i) % 6};
    if (pk_xmp_write_sidecar(r->path, &change, r->error, sizeof r->error) != 0) r->failures++;
  }
  return NULL;
}

static int race(const char *path, int threads, int writes) {
  racer racers[64];
  pthread_t ids[64];
  if (threads > 64) threads = 64;
  for (int t = 0; t < threads; t++) {
    racers[t] = (racer){.path = path, .thread = t, .writes = writes};
    pthread_create(&ids[t], NULL, race_one, &racers[t]);
  }
  int failures = 0;
  for (int t = 0; t < threads; t++) {
    pthread_join(ids[t], NULL);
    failures += racers[t].failures;
    if (racers[t].failures) fprintf(stderr, "thread %d: %s\n", t, racers[t].error);
  }
  printf("race: %d threads x %d writes, %d failed\n", threads, writes, failures);
  return failures != 0;
}

int main(int argc, char **argv) {
  char error[300];
  if (argc >= 2 && strcmp(argv[1], "available") == 0) {
    int ok = pk_xmp_available(error, sizeof error);
    printf(ok ? "available\n" : "unavailable: %s\n", error);
    return !ok;
  }
  if (argc >= 3 && (strcmp(argv[1], "sidecar") == 0 || strcmp(argv[1], "embed") == 0)) {
    pk_xmp_change change;
    if (!parse_change(argc - 3, argv + 3, &change)) return 2;
    int rc = strcmp(argv[1], "sidecar") == 0 ? pk_xmp_write_sidecar(argv[2], &change, error, sizeof error)
                                             : pk_xmp_write_embedded(argv[2], &change, error, sizeof error);
    if (rc == 0 && error[0] != 0) return printf("error set on success: %s\n", error), 1;
    printf(rc == 0 ? "ok\n" : "%s\n", error);
    return rc != 0;
  }
  if (argc >= 3 && strcmp(argv[1], "read") == 0) {
    for (int i = 2; i < argc; i++) {
      size_t size = 0;
      uint8_t *data = load(argv[i], &size);
      if (data == NULL) return perror(argv[i]), 1;
      pk_xmp_culling c;
      int found = pk_xmp_culling_read(data, size, &c);
      printf("{\"path\": \"%s\", \"found\": %d, \"has_rating\": %d, \"rating\": %d, \"label\": %d}\n", argv[i], found,
             c.has_rating, c.rating, c.label);
      free(data);
    }
    return 0;
  }
  if (argc == 5 && strcmp(argv[1], "time") == 0) return timing(argv[2], atoi(argv[3]), argv[4]);
  if (argc == 5 && strcmp(argv[1], "race") == 0) return race(argv[2], atoi(argv[3]), atoi(argv[4]));
  fprintf(stderr, "usage: see the comment at the top of xmp_sidecar_check.c\n");
  return 2;
}
