// Drives photo_header.c outside the package for scripts/test-photo-header.sh:
//   photo_header_check FILE...         one JSON object per file, as read from the path
//   photo_header_check --bytes FILE...  the same, and says whether the in-memory
//                                       entry point agrees on the whole file
//   photo_header_check --fuzz N FILE... N mutations of each file through the
//                                       in-memory entry point (for the sanitizers)
//   photo_header_check --speed DIR      reads every file in DIR, prints files/s
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "photo_header.h"

static void print_string(const char *name, const char *value) {
  printf(", \"%s\": \"", name);
  for (const char *c = value; *c; c++) printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
  printf("\"");
}

static void print_header(const char *path, int rc, const pk_photo_header *h) {
  printf("{\"path\": \"%s\", \"rc\": %d, \"format\": %d", path, rc, h->format);
  print_string("date_original", h->date_original);
  print_string("subsec_original", h->subsec_original);
  print_string("offset_original", h->offset_original);
  print_string("make", h->make);
  print_string("model", h->model);
  print_string("lens", h->lens);
  printf(", \"width\": %d, \"height\": %d, \"orientation\": %d, \"has_gps\": %d, \"latitude\": %.9f, \"longitude\": %.9f",
         h->width, h->height, h->orientation, h->has_gps, h->latitude, h->longitude);
  printf(", \"is_video\": %d, \"duration_seconds\": %.6f, \"frame_rate\": %.6f, \"created_since_1904\": %llu",
         h->is_video, h->duration_seconds, h->frame_rate, (unsigned long long)h->created_since_1904);
  print_string("video_codec", h->video_codec);
  printf(", \"has_rating\": %d, \"rating\": %d, \"label\": %d", h->culling.has_rating, h->culling.rating,
         h->culling.label);
}

static uint8_t *load(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t capacity = 1 << 20, used = 0;
  uint8_t *data = malloc(capacity);
  for (size_t got; data != NULL && (got = fread(data + used, 1, capacity - used, f)) > 0;) {
    used += got;
    if (used == capacity) data = realloc(data, capacity *= 2);
  }
  fclose(f);
  *size = used;
  return data;
}

static double now(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int speed(const char *directory) {
  DIR *dir = opendir(directory);
  if (dir == NULL) return perror(directory), 1;
  size_t count = 0, capacity = 1024;
  char **paths = malloc(capacity * sizeof *paths);
  for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
    if (entry->d_name[0] == '.') continue;
    if (count == capacity) paths = realloc(paths, (capacity *= 2) * sizeof *paths);
    size_t length = strlen(directory) + strlen(entry->d_name) + 2;
    paths[count] = malloc(length);
    snprintf(paths[count++], length, "%s/%s", directory, entry->d_name);
  }
  closedir(dir);
  pk_photo_header h;
  for (size_t i = 0; i < count; i++) pk_read_photo_header(paths[i], &h);  // warms the page and dentry caches
  double best = 0, cpu_best = 0, seconds = 0;
  size_t failures = 0, dated = 0;
  for (int round = 0; round < 3; round++) {
    double wall = now(CLOCK_MONOTONIC), cpu = now(CLOCK_PROCESS_CPUTIME_ID);
    for (size_t i = 0; i < count; i++) {
      failures += pk_read_photo_header(paths[i], &h) != 0;
      dated += h.date_original[0] != '\0';
    }
    wall = now(CLOCK_MONOTONIC) - wall;
    cpu = now(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    if (count / wall > best) best = count / wall, cpu_best = count / cpu, seconds = wall;
  }
  printf("speed: %zu files in %.3f s (best of 3 rounds): %.0f files/s wall, %.0f files/s of CPU time; "
         "%zu failed, %zu/%zu dated\n", count, seconds, best, cpu_best, failures, dated, 3 * count);
  return failures != 0 || dated != 3 * count;
}

static int fuzz(int rounds, int argc, char **argv) {
  uint64_t state = 0x9E3779B97F4A7C15u;
  for (int f = 0; f < argc; f++) {
    size_t size;
    uint8_t *original = load(argv[f], &size), *data = malloc(size + 1);
    if (original == NULL || data == NULL) return fprintf(stderr, "cannot load %s\n", argv[f]), 1;
    for (int r = 0; r < rounds; r++) {
      memcpy(data, original, size);
      size_t length = size;
      for (int m = 0; m < 1 + r % 8 && size > 0; m++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        size_t at = (size_t)(state >> 16) % size;
        // Mostly near the start, where the structures are.
        if (state & 1) at %= 4096 < size ? 4096 : size;
        data[at] = (state & 6) == 0 ? 0xFF : (state & 6) == 2 ? 0 : (uint8_t)(state >> 40);
      }
      if (r % 5 == 4) length = (size_t)(state >> 20) % (size + 1);
      pk_photo_header h;
      pk_read_photo_header_bytes(data, length, &h);
    }
    free(original);
    free(data);
  }
  printf("fuzz: %d mutations of each of %d files, no fault\n", rounds, argc);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--speed") == 0) return speed(argv[2]);
  if (argc >= 3 && strcmp(argv[1], "--fuzz") == 0) return fuzz(atoi(argv[2]), argc - 3, argv + 3);
  int bytes = argc > 1 && strcmp(argv[1], "--bytes") == 0;
  for (int i = 1 + bytes; i < argc; i++) {
    pk_photo_header h;
    int rc = pk_read_photo_header(argv[i], &h);
    print_header(argv[i], rc, &h);
    if (bytes) {
      size_t size = 0;
      uint8_t *data = load(argv[i], &size);
      pk_photo_header m;
      pk_read_photo_header_bytes(data, size, &m);
      if (data != NULL) printf(", \"bytes_match\": %s", memcmp(&h, &m, sizeof h) == 0 ? "true" : "false");
      free(data);
    }
    printf("}\n");
  }
  return 0;
}
