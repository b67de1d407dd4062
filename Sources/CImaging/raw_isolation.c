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

#include "decode_internal.h"
#include "optional_codecs.h"
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
    // Past the deadline what is already there is still taken: the picker
    // may have been stopped (Ctrl-Z) while the answer came.
    const int64_t left = deadline - now_ms();
    struct pollfd ready = {fd, POLLIN, 0};
    if (pk_io_poll(&ready, 1, left > 0 ? (int)left : 0) <= 0) return -1;
    ssize_t n = pk_io_read_once(fd, at, size);
    if (n <= 0) return -1;
    at += n;
    size -= (size_t)n;
  }
  return 0;
}

// The helper stays: a server started once (`--raw-helper serve`) that forks
// a fresh child for each RAW. Each file is still read in a process of its
// own that nothing before it touched, so a crash or a hang costs that one
// photo; what is saved is the exec, the dynamic loading and the runtime's
// start for every file. A request carries the file as a descriptor (a
// memfd of its bytes, or the file itself for facts); the server answers
// with the read end of a pipe the child writes its answer to, then, once
// the child is gone, its wait status. Idle servers are kept for the next
// request, one per request running at once.
// Videos go the same way (request_video, the file itself as descriptor):
// their demuxers and decoders meet hostile files too.
enum { request_decode = 1, request_facts = 2, request_video = 3 };

typedef struct {
  uint32_t magic;
  int32_t kind;
  int32_t need_width, need_height, enough_width, enough_height;
  int64_t max_pixels;
  int32_t rotation;  // a video's quarter turns, in degrees
} raw_request;

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

// Bytes with a descriptor riding along (SCM_RIGHTS); -1 when it fails.
static int send_with_descriptor(int socket, const void *bytes, size_t size, int descriptor) {
  struct iovec part = {(void *)bytes, size};
  union {
    char buffer[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr message = {0};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  message.msg_control = control.buffer;
  message.msg_controllen = sizeof control.buffer;
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
  ssize_t sent;
  do sent = sendmsg(socket, &message, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  return sent == (ssize_t)size ? 0 : -1;
}

// Receives `size` bytes and the descriptor that came with them; -1 on
// end, error, a missing descriptor or the deadline (-1: none).
static int receive_with_descriptor(int socket, void *bytes, size_t size, int *descriptor, int64_t deadline) {
  if (deadline >= 0) {
    const int64_t left = deadline - now_ms();
    struct pollfd ready = {socket, POLLIN, 0};
    if (left <= 0 || pk_io_poll(&ready, 1, (int)left) <= 0) return -1;
  }
  struct iovec part = {bytes, size};
  union {
    char buffer[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  struct msghdr message = {0};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  message.msg_control = control.buffer;
  message.msg_controllen = sizeof control.buffer;
  ssize_t got;
  do got = recvmsg(socket, &message, MSG_CMSG_CLOEXEC | MSG_WAITALL);
  while (got < 0 && errno == EINTR);
  struct cmsghdr *header = got > 0 ? CMSG_FIRSTHDR(&message) : NULL;
  if (header == NULL || header->cmsg_type != SCM_RIGHTS || header->cmsg_len != CMSG_LEN(sizeof(int))) return -1;
  memcpy(descriptor, CMSG_DATA(header), sizeof(int));
  if (got != (ssize_t)size) {
    close(*descriptor);
    return -1;
  }
  return 0;
}

// One request to a server: the pipe its child answers on, or -1. A server
// taken from the pool may have gone meanwhile: then a fresh one is asked.
static int ask(raw_server *server, const raw_request *request, int input, int64_t deadline) {
  for (int attempt = 0; attempt < 2; attempt++) {
    int fresh = 0;
    if (take_server(server, &fresh) != 0) return -1;
    char byte;
    int answer = -1;
    if (send_with_descriptor(server->socket, request, sizeof *request, input) == 0 &&
        receive_with_descriptor(server->socket, &byte, 1, &answer, deadline) == 0)
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
  if (read_all(server->socket, &status, sizeof status, deadline) != 0) {
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
  const int64_t deadline = now_ms() + helper_deadline_ms;
  raw_server server;
  int output = ask(&server, &request, input, deadline);
  if (output < 0) {
    options->content_error = 0;
    return pk_fail(options, "cannot start the %s reader", what);
  }
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
  const int64_t deadline = now_ms() + helper_deadline_ms;
  raw_server server;
  int output = ask(&server, &request, input, deadline);
  close(input);
  if (output < 0) return -1;
  pk_facts answer;
  const int answered = read_all(output, &answer, sizeof answer, deadline) == 0;
  close(output);
  finish(&server, deadline);
  if (!answered || answer.format != PK_FORMAT_RAW) return -1;
  answer.error[sizeof answer.error - 1] = 0;
  *facts = answer;
  return 0;
}

static int write_answer(int output, decode_answer *answer, pk_image *image) {
  if (answer->status == 0) {
    answer->options.content_error = 0;
    answer->width = image->width;
    answer->height = image->height;
  }
  int failed = pk_io_write_all(output, answer, sizeof *answer);
  if (!failed && answer->status == 0)
    failed = pk_io_write_all(output, image->pixels, (size_t)image->width * image->height * 4);
  pk_image_free(image);
  return failed ? 2 : 0;
}

static void start_answer(const raw_request *request, decode_answer *answer, pk_format format) {
  memset(answer, 0, sizeof *answer);
  answer->magic = answer_magic;
  answer->options.need_width = request->need_width;
  answer->options.need_height = request->need_height;
  answer->options.enough_width = request->enough_width;
  answer->options.enough_height = request->enough_height;
  answer->options.max_pixels = request->max_pixels;
  answer->options.content_error = 1;
  answer->options.orientation = 1;
  answer->options.scale_denominator = 1;
  answer->options.format = format;
}

// A video's frame, read from the file itself (never all of it).
static int answer_video(const raw_request *request, int input, int output) {
  decode_answer answer;
  start_answer(request, &answer, PK_FORMAT_VIDEO);
  pk_image image = {0};
  answer.status = pk_decode_video_fd(input, request->rotation, &answer.options, &image);
  return write_answer(output, &answer, &image);
}

// The child's side: the file's bytes from `input`, the answer to `output`.
static int answer_request(const raw_request *request, int input, int output) {
  if (request->kind == request_video) return answer_video(request, input, output);
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
    ssize_t n = pk_io_read_once(input, data + size, capacity - size);
    if (n < 0) return 2;
    if (n == 0) break;
    size += (size_t)n;
  }
  if (request->kind == request_facts) {
    pk_facts facts;
    memset(&facts, 0, sizeof facts);
    facts.file_size = (int64_t)size;
    if (pk_raw_facts_memory(data, size, &facts) != 0) return 1;
    facts.format = PK_FORMAT_RAW;
    return pk_io_write_all(output, &facts, sizeof facts) == 0 ? 0 : 2;
  }
  decode_answer answer;
  start_answer(request, &answer, PK_FORMAT_RAW);
  pk_image image = {0};
  answer.status = pk_decode_raw(data, size, &answer.options, &image);
  free(data);
  return write_answer(output, &answer, &image);
}

// The server's side, on the socket that is its stdin: a child for each
// request, until the picker closes its end.
int pk_raw_helper_main(int argc, char **argv) {
  if (argc < 3 || strcmp(argv[2], "serve") != 0) return 2;
  signal(SIGPIPE, SIG_IGN);
  // LibRaw is opened once here, before any fork: each child then starts
  // with it loaded instead of opening it again.
  pk_open_raw();
  for (;;) {
    raw_request request;
    int input = -1;
    if (receive_with_descriptor(0, &request, sizeof request, &input, -1) != 0) return 0;
    if (request.magic != answer_magic) {
      close(input);
      return 2;
    }
    // FFmpeg's libraries too are opened here once, with the first video.
    if (request.kind == request_video) pk_open_video();
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return 2;
    const pid_t child = fork();
    if (child == 0) {
      close(pipe_fds[0]);
      signal(SIGPIPE, SIG_DFL);
      // A child looping on a damaged file must not outlive its server.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() == 1) _exit(2);
      _exit(answer_request(&request, input, pipe_fds[1]));
    }
    close(pipe_fds[1]);
    close(input);
    if (child < 0) {
      close(pipe_fds[0]);
      return 2;
    }
    const char byte = 1;
    const int sent = send_with_descriptor(0, &byte, 1, pipe_fds[0]);
    close(pipe_fds[0]);
    // The picker may end (or be killed) while the child works: a socket
    // hung up ends the child and the server, never leaving them to spin.
    int status = 0;
    const int exited = (int)syscall(SYS_pidfd_open, child, 0);
    while (exited >= 0) {
      struct pollfd watch[2] = {{exited, POLLIN, 0}, {0, 0, 0}};
      if (pk_io_poll(watch, 2, -1) < 0) break;
      if (watch[0].revents) break;
      if (watch[1].revents & (POLLHUP | POLLERR)) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        return 0;
      }
    }
    if (exited >= 0) close(exited);
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    int32_t reported = status;
    if (sent != 0 || pk_io_write_all(0, &reported, sizeof reported) != 0) return 0;
  }
}

#else

// Without memfd the helper is never chosen (pk_set_raw_reader).
int pk_decode_raw_isolated(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  return pk_decode_raw(data, size, options, out);
}

int pk_decode_video_isolated(int fd, int32_t rotation, pk_decode_options *options, pk_image *out) {
  return pk_decode_video_fd(fd, rotation, options, out);
}

void pk_raw_end_servers(void) {
  pthread_mutex_lock(&pool_lock);
  while (idle_count > 0) end_server(&idle_servers[--idle_count]);
  pthread_mutex_unlock(&pool_lock);
}

int pk_raw_facts_isolated(const char *path, pk_facts *facts) { return pk_raw_facts(path, facts); }

int pk_raw_helper_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return 2;
}

void pk_raw_end_servers(void) {}

#endif
