// Camera RAWs are read by LibRaw in a child process. LibRaw parses dozens of
// makers' formats, and the version Debian ships crashes on some damaged files
// (a mutated DNG segfaulted it within seconds of fuzzing): in the picker's
// own process that would take down the whole screen for one bad file. Each
// file is read in a child forked for it by a helper server (see below): it
// gets the bytes (a memfd) and answers with a header and the pixels, or the
// facts; a crash, a hang past the deadline or a short answer becomes an
// error for that one photo.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helper_protocol.h"
#include "optional_codecs.h"
#include "system_calls.h"

extern char **environ;

static pk_raw_reader raw_mode = PK_RAW_IN_PROCESS;
static char raw_helper[4096];

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

typedef struct {
  pid_t pid;  // also its process group: a child it forked goes with it
  int socket;
} raw_server;

enum { max_idle_servers = 8 };
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static raw_server idle_servers[max_idle_servers];
static int idle_count = 0;

// Starts a server with one end of a socket pair as its stdin; stdout and
// stderr go nowhere (a crash report is not for the picker's screen).
static int start_server(raw_server *server) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return -1;
  char *argv[] = {"picker-tui", "--raw-helper", "serve", NULL};
  // The environment plus one setting: the Swift runtime's crash backtrace
  // would keep a crashed child alive for seconds.
  size_t count = 0;
  while (environ[count] != NULL) count++;
  char **env = calloc(count + 2, sizeof *env);
  if (env == NULL) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  size_t kept = 0;
  for (size_t i = 0; i < count; i++)
    if (strncmp(environ[i], "SWIFT_BACKTRACE=", 16) != 0) env[kept++] = environ[i];
  env[kept++] = "SWIFT_BACKTRACE=enable=no";
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  // It lives as long as the picker: nothing another thread opened without
  // close-on-exec yet (a source's pipe) may stay open in it.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawnattr_init(&attributes);
  // The picker blocks and handles signals its own way; the server starts
  // with none blocked and every handler at its default, in a process group
  // of its own (killed whole, with the child it forked, on a hang).
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  pid_t pid = -1;
  if (posix_spawn(&pid, raw_helper, &actions, &attributes, argv, env) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  free(env);
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return -1;
  }
  server->pid = pid;
  server->socket = fds[0];
  return 0;
}

static void end_server(raw_server *server) {
  kill(-server->pid, SIGKILL);
  kill(server->pid, SIGKILL);
  close(server->socket);
  while (waitpid(server->pid, NULL, 0) < 0 && errno == EINTR) {
  }
}

// An idle server, or a new one; `fresh` says which.
static int take_server(raw_server *server, int *fresh) {
  pthread_mutex_lock(&pool_lock);
  const int found = idle_count > 0;
  if (found) *server = idle_servers[--idle_count];
  pthread_mutex_unlock(&pool_lock);
  *fresh = !found;
  return found ? 0 : start_server(server);
}

static void give_back(raw_server *server) {
  pthread_mutex_lock(&pool_lock);
  const int kept = idle_count < max_idle_servers;
  if (kept) idle_servers[idle_count++] = *server;
  pthread_mutex_unlock(&pool_lock);
  if (!kept) end_server(server);
}

// One request to a server: the pipe its child answers on, or -1. A server
// taken from the pool may have gone meanwhile: then a fresh one is asked.
static int ask(raw_server *server, const raw_request *request, int input, int64_t deadline) {
  for (int attempt = 0; attempt < 2; attempt++) {
    int fresh = 0;
    if (take_server(server, &fresh) != 0) return -1;
    char byte;
    int answer = -1;
    if (pk_helper_send(server->socket, request, sizeof *request, input) == 0 &&
        pk_helper_receive(server->socket, &byte, 1, &answer, deadline) == 0)
      return answer;
    end_server(server);
    if (fresh) return -1;
  }
  return -1;
}

typedef enum { child_ended, child_crashed, child_hung } child_end;

// After the answer: the child's wait status (a child that died answering
// reports too). The server goes back to the pool when it came before the
// deadline, else it is ended with a child that hangs. A crash is a signal
// the file caused, not one that cut it off (an answer larger than allowed
// is left unread, and its writer dies of the closed pipe; the kernel's
// out-of-memory killer sends SIGKILL).
static child_end finish(raw_server *server, int64_t deadline) {
  int32_t status = 0;
  if (pk_helper_read_all(server->socket, &status, sizeof status, deadline) != 0) {
    end_server(server);
    return child_hung;
  }
  give_back(server);
  const int crashed = WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL && WTERMSIG(status) != SIGPIPE;
  return crashed ? child_crashed : child_ended;
}

// A decode by a helper's child: `input` is the file's descriptor (a RAW's
// bytes in a memfd, or a video itself); `what` names the file in errors.
static int decode_in_helper(
  int kind, int input, int32_t rotation, const char *what, pk_decode_options *options, pk_image *out) {
  const raw_request request = {answer_magic, kind, (int32_t)options->need_width, (int32_t)options->need_height,
    (int32_t)options->enough_width, (int32_t)options->enough_height, options->max_pixels, rotation};
  const int64_t deadline = pk_helper_now_ms() + helper_deadline_ms;
  raw_server server;
  int output = ask(&server, &request, input, deadline);
  if (output < 0) {
    options->content_error = 0;
    return pk_fail(options, "cannot start the %s reader", what);
  }
  decode_answer answer;
  int answered = pk_helper_read_all(output, &answer, sizeof answer, deadline) == 0 && answer.magic == answer_magic;
  uint8_t *pixels = NULL;
  if (answered && answer.status == 0) {
    // Only as many pixels as the box allows may come back.
    pk_decode_options limit = *options;
    if (pk_check_size(&limit, answer.width, answer.height) != 0 ||
        (pixels = pk_alloc_pixels(answer.width, answer.height)) == NULL ||
        pk_helper_read_all(output, pixels, (size_t)answer.width * (size_t)answer.height * 4, deadline) != 0) {
      free(pixels);
      pixels = NULL;
      answered = 0;
    }
  }
  close(output);
  // A child that died answering still reports its status; one that hung
  // is ended with its server.
  const child_end end = finish(&server, deadline);
  if (!answered) {
    // A crash or a hang is the file's doing, and remembered as such; a
    // reader that ran out of memory or was killed says nothing of it.
    options->content_error = end != child_ended;
    if (end == child_crashed) return pk_fail(options, "damaged %s (its reader crashed)", what);
    if (end == child_hung) return pk_fail(options, "damaged %s (no answer)", what);
    return pk_fail(options, "the %s reader failed (out of memory?)", what);
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

int pk_decode_raw_isolated(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  int input = memfd_create("picker-tui-raw", MFD_CLOEXEC);
  if (input < 0 || pk_io_write_all(input, data, size) != 0 || lseek(input, 0, SEEK_SET) != 0) {
    if (input >= 0) close(input);
    return pk_fail(options, "cannot hand the camera RAW to its reader: %s", strerror(errno));
  }
  const int status = decode_in_helper(request_decode, input, 0, "camera RAW", options, out);
  close(input);
  return status;
}

int pk_decode_video_isolated(int fd, int32_t rotation, pk_decode_options *options, pk_image *out) {
  return decode_in_helper(request_video, fd, rotation, "video", options, out);
}

void pk_raw_end_servers(void) {
  pthread_mutex_lock(&pool_lock);
  while (idle_count > 0) end_server(&idle_servers[--idle_count]);
  pthread_mutex_unlock(&pool_lock);
}

int pk_raw_facts_isolated(const char *path, pk_facts *facts) {
  int input = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (input < 0) return -1;
  const raw_request request = {answer_magic, request_facts, 0, 0, 0, 0, 0};
  const int64_t deadline = pk_helper_now_ms() + helper_deadline_ms;
  raw_server server;
  int output = ask(&server, &request, input, deadline);
  close(input);
  if (output < 0) return -1;
  pk_facts answer;
  const int answered = pk_helper_read_all(output, &answer, sizeof answer, deadline) == 0;
  close(output);
  finish(&server, deadline);
  if (!answered || answer.format != PK_FORMAT_RAW) return -1;
  answer.error[sizeof answer.error - 1] = 0;
  *facts = answer;
  return 0;
}

#else

// Without memfd the helper is never chosen (pk_set_raw_reader).
int pk_decode_raw_isolated(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  return pk_decode_raw(data, size, options, out);
}

int pk_decode_video_isolated(int fd, int32_t rotation, pk_decode_options *options, pk_image *out) {
  return pk_decode_video_fd(fd, rotation, options, out);
}

int pk_raw_facts_isolated(const char *path, pk_facts *facts) { return pk_raw_facts(path, facts); }

void pk_raw_end_servers(void) {}

#endif
