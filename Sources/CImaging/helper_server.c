// The helper server's side (`picker-tui --raw-helper serve`): a child
// forked for each request reads the file (a camera RAW's bytes through
// LibRaw, a video through FFmpeg) and writes its answer to a pipe; see
// raw_isolation.c for why.
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

#ifdef __linux__

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
    if (pk_helper_receive(0, &request, sizeof request, &input, -1) != 0) return 0;
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
    const int sent = pk_helper_send(0, &byte, 1, pipe_fds[0]);
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

int pk_raw_helper_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return 2;
}

#endif
