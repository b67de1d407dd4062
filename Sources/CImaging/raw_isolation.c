// Camera RAWs are read by LibRaw in a child process. LibRaw parses dozens of
// makers' formats, and the version Debian ships crashes on some damaged files
// (a mutated DNG segfaulted it within seconds of fuzzing): in the picker's
// own process that would take down the whole screen for one bad file. The
// child gets the bytes on stdin (a memfd) and answers on stdout with a
// header and the pixels, or the facts; a crash, a hang past the deadline or
// a short answer becomes an error for that one photo.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "decode_internal.h"
#include "system_calls.h"

extern char **environ;

static pk_raw_reader raw_mode = PK_RAW_IN_PROCESS;
static char raw_helper[4096];

// A damaged RAW that makes LibRaw loop is given this long.
static const int helper_deadline_ms = 10000;
static const uint32_t answer_magic = 0x574152;  // "RAW"

typedef struct {
  uint32_t magic;
  int32_t status;
  pk_decode_options options;  // the outputs: format, sizes, orientation, error
  int32_t width, height;  // the pixels that follow
} decode_answer;

void pk_set_raw_reader(pk_raw_reader mode, const char *helper) {
#ifndef __linux__
  if (mode == PK_RAW_ISOLATED) mode = PK_RAW_IN_PROCESS;
#endif
  raw_mode = mode;
  snprintf(raw_helper, sizeof raw_helper, "%s", helper != NULL ? helper : "");
  if (mode == PK_RAW_ISOLATED && raw_helper[0] == 0) raw_mode = PK_RAW_IN_PROCESS;
}

pk_raw_reader pk_get_raw_reader(void) { return raw_mode; }

#ifdef __linux__

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

// Reads exactly `size` bytes before the deadline; -1 on end, error or time.
static int read_all(int fd, void *buffer, size_t size, int64_t deadline) {
  uint8_t *at = buffer;
  while (size > 0) {
    const int64_t left = deadline - now_ms();
    if (left <= 0) return -1;
    struct pollfd ready = {fd, POLLIN, 0};
    if (pk_io_poll(&ready, 1, (int)left) <= 0) return -1;
    ssize_t n = pk_io_read_once(fd, at, size);
    if (n <= 0) return -1;
    at += n;
    size -= (size_t)n;
  }
  return 0;
}

// Starts the helper with `input` as its stdin and a pipe as its stdout; its
// stderr goes nowhere (a crash report is not for the picker's screen).
static pid_t start_helper(const char *mode, int input, int *output, const pk_decode_options *options) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
  char need_w[16], need_h[16], enough_w[16], enough_h[16], max_pixels[24];
  snprintf(need_w, sizeof need_w, "%d", (int)options->need_width);
  snprintf(need_h, sizeof need_h, "%d", (int)options->need_height);
  snprintf(enough_w, sizeof enough_w, "%d", (int)options->enough_width);
  snprintf(enough_h, sizeof enough_h, "%d", (int)options->enough_height);
  snprintf(max_pixels, sizeof max_pixels, "%lld", (long long)options->max_pixels);
  char *argv[] = {"picker-tui", "--raw-helper", (char *)mode, need_w, need_h, enough_w, enough_h, max_pixels, NULL};
  // The environment plus one setting: the Swift runtime's crash backtrace
  // would keep a crashed helper alive for seconds.
  size_t count = 0;
  while (environ[count] != NULL) count++;
  char **env = calloc(count + 2, sizeof *env);
  if (env == NULL) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return -1;
  }
  size_t kept = 0;
  for (size_t i = 0; i < count; i++)
    if (strncmp(environ[i], "SWIFT_BACKTRACE=", 16) != 0) env[kept++] = environ[i];
  env[kept++] = "SWIFT_BACKTRACE=enable=no";
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_init(&attributes);
  // The picker blocks and handles signals its own way; the helper starts
  // with none blocked and every handler at its default.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  if (posix_spawn(&pid, raw_helper, &actions, &attributes, argv, env) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  free(env);
  close(pipe_fds[1]);
  if (pid < 0) {
    close(pipe_fds[0]);
    return -1;
  }
  *output = pipe_fds[0];
  return pid;
}

// Waits for the helper, killing it first when it has not answered in full.
// Returns 1 when it crashed (a signal), else 0.
static int finish_helper(pid_t pid, int answered) {
  if (!answered) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL;
}

int pk_decode_raw_isolated(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  int input = memfd_create("picker-tui-raw", MFD_CLOEXEC);
  if (input < 0 || pk_io_write_all(input, data, size) != 0 || lseek(input, 0, SEEK_SET) != 0) {
    if (input >= 0) close(input);
    return pk_fail(options, "cannot hand the camera RAW to its reader: %s", strerror(errno));
  }
  int output = -1;
  pid_t pid = start_helper("decode", input, &output, options);
  close(input);
  if (pid < 0) {
    options->content_error = 0;
    return pk_fail(options, "cannot start the camera RAW reader");
  }
  const int64_t deadline = now_ms() + helper_deadline_ms;
  decode_answer answer;
  int answered = read_all(output, &answer, sizeof answer, deadline) == 0 && answer.magic == answer_magic;
  uint8_t *pixels = NULL;
  if (answered && answer.status == 0) {
    // Only as many pixels as the box allows may come back.
    pk_decode_options limit = *options;
    if (pk_check_size(&limit, answer.width, answer.height) != 0 ||
        (pixels = pk_alloc_pixels(answer.width, answer.height)) == NULL ||
        read_all(output, pixels, (size_t)answer.width * (size_t)answer.height * 4, deadline) != 0) {
      free(pixels);
      pixels = NULL;
      answered = 0;
    }
  }
  close(output);
  const int crashed = finish_helper(pid, answered);
  if (!answered) {
    options->content_error = 1;
    return pk_fail(options, crashed ? "damaged camera RAW (its reader crashed)" : "damaged camera RAW (no answer)");
  }
  // The outputs the helper's decoder set, the caller's inputs kept.
  options->format = answer.options.format;
  options->source_width = answer.options.source_width;
  options->source_height = answer.options.source_height;
  options->orientation = answer.options.orientation;
  options->used_embedded_thumbnail = answer.options.used_embedded_thumbnail;
  options->scale_denominator = answer.options.scale_denominator;
  options->content_error = answer.options.content_error;
  memcpy(options->error, answer.options.error, sizeof options->error);
  options->error[sizeof options->error - 1] = 0;
  if (answer.status != 0) return -1;
  out->width = answer.width;
  out->height = answer.height;
  out->pixels = pixels;
  return 0;
}

int pk_raw_facts_isolated(const char *path, pk_facts *facts) {
  int input = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (input < 0) return -1;
  pk_decode_options none = {0};
  int output = -1;
  pid_t pid = start_helper("facts", input, &output, &none);
  close(input);
  if (pid < 0) return -1;
  pk_facts answer;
  const int answered = read_all(output, &answer, sizeof answer, now_ms() + helper_deadline_ms) == 0;
  close(output);
  finish_helper(pid, answered);
  if (!answered || answer.format != PK_FORMAT_RAW) return -1;
  answer.error[sizeof answer.error - 1] = 0;
  *facts = answer;
  return 0;
}

// The helper's side: reads everything on stdin, answers on stdout.
int pk_raw_helper_main(int argc, char **argv) {
  if (argc < 8) return 2;
  size_t capacity = 1 << 20, size = 0;
  uint8_t *data = malloc(capacity);
  for (;;) {
    if (data == NULL) return 2;
    if (size == capacity) {
      if (capacity >= (size_t)512 << 20) return 2;
      capacity *= 2;
      uint8_t *grown = realloc(data, capacity);
      if (grown == NULL) return 2;
      data = grown;
    }
    ssize_t n = pk_io_read_once(0, data + size, capacity - size);
    if (n < 0) return 2;
    if (n == 0) break;
    size += (size_t)n;
  }
  if (strcmp(argv[2], "facts") == 0) {
    pk_facts facts;
    memset(&facts, 0, sizeof facts);
    facts.file_size = (int64_t)size;
    if (pk_raw_facts_memory(data, size, &facts) != 0) return 1;
    facts.format = PK_FORMAT_RAW;
    return pk_io_write_all(1, &facts, sizeof facts) == 0 ? 0 : 2;
  }
  decode_answer answer;
  memset(&answer, 0, sizeof answer);
  answer.magic = answer_magic;
  answer.options.need_width = atoi(argv[3]);
  answer.options.need_height = atoi(argv[4]);
  answer.options.enough_width = atoi(argv[5]);
  answer.options.enough_height = atoi(argv[6]);
  answer.options.max_pixels = atoll(argv[7]);
  answer.options.content_error = 1;
  answer.options.orientation = 1;
  answer.options.scale_denominator = 1;
  answer.options.format = PK_FORMAT_RAW;
  pk_image image = {0};
  answer.status = pk_decode_raw(data, size, &answer.options, &image);
  free(data);
  if (answer.status == 0) {
    answer.options.content_error = 0;
    answer.width = image.width;
    answer.height = image.height;
  }
  int failed = pk_io_write_all(1, &answer, sizeof answer);
  if (!failed && answer.status == 0) failed = pk_io_write_all(1, image.pixels, (size_t)image.width * image.height * 4);
  pk_image_free(&image);
  return failed ? 2 : 0;
}

#else

// Without memfd the helper is never chosen (pk_set_raw_reader).
int pk_decode_raw_isolated(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  return pk_decode_raw(data, size, options, out);
}

int pk_raw_facts_isolated(const char *path, pk_facts *facts) { return pk_raw_facts(path, facts); }

int pk_raw_helper_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return 2;
}

#endif
