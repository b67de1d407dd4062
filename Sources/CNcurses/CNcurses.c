#include "CNcurses.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "system_calls.h"

static FILE *tty_file = NULL;
// Set once button-event tracking (xterm's mode 1002) was asked for: the
// close turns it off again, as ncurses knows only its own modes.
static int drag_reporting = 0;
// ncurses reports clicks (mousemask): a screen entered by hand asks again.
static int mouse_enabled = 0;

// The crash handler uses this, never the FILE, which may be mid-fclose.
static volatile int tty_fd = -1;
static struct termios saved_modes;
static int saved_modes_valid = 0;
static volatile sig_atomic_t pending_signal = 0;
static int wakeup_pipe[2] = {-1, -1};

// Image libraries print to stderr on damaged files (libjxl's failures,
// dav1d's "Error parsing OBU data"); with the screen on the terminal they
// would be drawn over the grid. While the screen is up, stderr goes to
// `stderr_target` (the picker's log, else /dev/null); the crash handler and
// pk_close_terminal put it back.
static int stderr_target = -1;
static int saved_stderr = -1;

void pk_set_stderr_target(int fd) { stderr_target = fd; }

static void divert_stderr(void) {
  if (saved_stderr >= 0 || !isatty(2)) return;  // 2>file: the user chose
  int target = stderr_target >= 0 ? stderr_target : open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (target < 0) return;
  saved_stderr = fcntl(2, F_DUPFD_CLOEXEC, 3);
  if (saved_stderr >= 0 && dup2(target, 2) < 0) {
    close(saved_stderr);
    saved_stderr = -1;
  }
  if (target != stderr_target) close(target);
}

static void restore_stderr(void) {
  if (saved_stderr < 0) return;
  dup2(saved_stderr, 2);
  close(saved_stderr);
  saved_stderr = -1;
}
static struct sigaction ncurses_resize_action;

// Reset bytes computed while it is safe to call terminfo, written from the
// crash handler with write(2) only.
static char reset_bytes[256];
// What puts the picker's screen back after a suspend that left it by hand
// (see pk_suspend): the alternate screen, no cursor, the keypad's mode.
static char enter_bytes[256];
static size_t enter_length = 0;
static size_t reset_length = 0;

int pk_open_tty(void) {
  if (tty_file != NULL) return fileno(tty_file);
  tty_file = fopen("/dev/tty", "r+");
  if (tty_file == NULL) return -1;
  int fd = fileno(tty_file);
  // The descriptor must not leak into child processes (custom sources).
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (tcgetattr(fd, &saved_modes) == 0) saved_modes_valid = 1;
  tty_fd = fd;
  return fd;
}

void pk_close_tty(void) {
  if (tty_file == NULL) return;
  if (saved_modes_valid) tcsetattr(fileno(tty_file), TCSADRAIN, &saved_modes);
  saved_modes_valid = 0;
  tty_fd = -1;
  fclose(tty_file);
  tty_file = NULL;
}

int pk_raw_mode(int on) {
  if (tty_file == NULL || !saved_modes_valid) return -1;
  struct termios modes = saved_modes;
  if (on) {
    modes.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
    modes.c_iflag &= ~(IXON | ICRNL | INLCR | IGNCR);
    modes.c_cc[VMIN] = 0;
    modes.c_cc[VTIME] = 0;
  }
  // TCSANOW, never TCSAFLUSH: keys typed already are kept.
  return tcsetattr(fileno(tty_file), TCSANOW, &modes);
}

SCREEN *pk_open_terminal(const char *termname, pk_open_status *status) {
  *status = PK_OPEN_OK;
  if (pk_open_tty() < 0) {
    *status = PK_OPEN_NO_TTY;
    return NULL;
  }
  int fd = fileno(tty_file);
  SCREEN *screen = newterm(termname, tty_file, tty_file);
  if (screen == NULL) {
    // The tty stays open: the caller may try another name (a *-direct
    // entry first), and closes it with pk_close_tty when it gives up.
    *status = PK_OPEN_UNKNOWN_TERM;
    return NULL;
  }
  set_term(screen);
  tty_fd = fd;
  divert_stderr();
  return screen;
}

static int owns_terminal(void);

static int put_tty_char(int c) { return tty_file == NULL ? EOF : fputc(c, tty_file); }

// Without an alternate screen (linux console, vt100) the last frame would
// stay under the shell prompt: clear it and home the cursor, as the
// alternate screen's exit would have shown the shell's screen.
static void clear_when_no_alternate_screen(void) {
  char *enter = tigetstr("smcup");
  char *clear = tigetstr("clear");
  int has_alternate = enter != NULL && enter != (char *)-1 && enter[0] != '\0';
  if (has_alternate || clear == NULL || clear == (char *)-1 || tty_file == NULL) return;
  tputs(clear, 1, put_tty_char);
  fflush(tty_file);
}

void pk_close_terminal(SCREEN *screen) {
  restore_stderr();
  // Ended while the shell holds the terminal (killed while stopped): its
  // settings and screen are the shell's; setting them from here would
  // stop the picker again (SIGTTOU) with nothing to continue it. The
  // screen was given back at the suspend.
  if (!owns_terminal()) {
    if (tty_file != NULL) {
      tty_fd = -1;
      fclose(tty_file);
      tty_file = NULL;
    }
    drag_reporting = 0;
    mouse_enabled = 0;
    return;
  }
  if (drag_reporting && tty_file != NULL) {
    fputs("\033[?1002l", tty_file);
    fflush(tty_file);
    drag_reporting = 0;
  }
  mouse_enabled = 0;
  endwin();
  clear_when_no_alternate_screen();
  if (screen != NULL) delscreen(screen);
  if (tty_file != NULL) {
    if (saved_modes_valid) tcsetattr(fileno(tty_file), TCSADRAIN, &saved_modes);
    tty_fd = -1;
    fclose(tty_file);
    tty_file = NULL;
  }
}

int pk_tty_fd(void) { return tty_file == NULL ? -1 : fileno(tty_file); }

static void wake_loop(void) {
  int saved_errno = errno;
  if (wakeup_pipe[1] >= 0) {
    char byte = 1;
    ssize_t ignored = write(wakeup_pipe[1], &byte, 1);  // full pipe: already awake
    (void)ignored;
  }
  errno = saved_errno;
}

static void record_signal(int sig) {
  pending_signal = sig;
  wake_loop();
}

// Every signal whose default action ends the process, crashes aside (see
// pk_install_crash_handler): the loop restores the terminal, then exits with
// 128 + the signal's number.
#ifdef SIGPWR
#define PK_SIGPWR , SIGPWR
#else
#define PK_SIGPWR
#endif
#ifdef SIGSTKFLT
#define PK_SIGSTKFLT , SIGSTKFLT
#else
#define PK_SIGSTKFLT
#endif
#define PK_ENDING_SIGNALS                                                                                      \
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO PK_SIGPWR \
      PK_SIGSTKFLT

// Every signal the picker or ncurses installs a handler for. The host's
// handlers are saved before the first install and put back by
// pk_restore_signal_handlers, so a program embedding the picker has its own
// again once the picker returns.
static const int host_signals[] = {PK_ENDING_SIGNALS, SIGPIPE, SIGWINCH, SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU, SIGSEGV,
  SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
#define HOST_SIGNAL_COUNT (sizeof host_signals / sizeof host_signals[0])
static struct sigaction host_actions[HOST_SIGNAL_COUNT];
static int host_actions_saved = 0;
static stack_t host_stack;
static int host_stack_saved = 0;

static void save_host_handlers(void) {
  if (host_actions_saved) return;
  for (size_t i = 0; i < HOST_SIGNAL_COUNT; i++) sigaction(host_signals[i], NULL, &host_actions[i]);
  host_actions_saved = 1;
}

void pk_restore_signal_handlers(void) {
  if (host_actions_saved) {
    for (size_t i = 0; i < HOST_SIGNAL_COUNT; i++) sigaction(host_signals[i], &host_actions[i], NULL);
    host_actions_saved = 0;
  }
  if (host_stack_saved) {
    sigaltstack(&host_stack, NULL);
    host_stack_saved = 0;
  }
  __atomic_store_n(&pending_signal, 0, __ATOMIC_SEQ_CST);
  // No handler of ours is left to write to the wake-up pipe: it goes, so a
  // host that carries on keeps no descriptor of the picker's (the next run
  // makes a new one).
  int writer = __atomic_exchange_n(&wakeup_pipe[1], -1, __ATOMIC_SEQ_CST);
  if (writer >= 0) close(writer);
  if (wakeup_pipe[0] >= 0) close(wakeup_pipe[0]);
  wakeup_pipe[0] = -1;
}

void pk_install_signal_handlers(void) {
  save_host_handlers();
  if (wakeup_pipe[0] < 0 && pipe(wakeup_pipe) == 0) {
    for (int i = 0; i < 2; i++) {
      fcntl(wakeup_pipe[i], F_SETFL, fcntl(wakeup_pipe[i], F_GETFL) | O_NONBLOCK);
      fcntl(wakeup_pipe[i], F_SETFD, FD_CLOEXEC);
    }
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: poll() must return so the loop sees the flag.
  action.sa_flags = 0;
  int ending[] = {PK_ENDING_SIGNALS};
  for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++) sigaction(ending[i], &action, NULL);
  // A closed pipe on stdout must be an error from write(), not a silent death.
  signal(SIGPIPE, SIG_IGN);
}

int pk_take_signal(void) { return __atomic_exchange_n(&pending_signal, 0, __ATOMIC_SEQ_CST); }

int pk_signal_pending(void) { return __atomic_load_n(&pending_signal, __ATOMIC_SEQ_CST) != 0; }

int pk_signal_fd(void) { return wakeup_pipe[0]; }

void pk_drain_wakeups(void) {
  char buffer[64];
  while (wakeup_pipe[0] >= 0 && read(wakeup_pipe[0], buffer, sizeof buffer) > 0) {
  }
}

static volatile sig_atomic_t resync_pending = 0;

static void resize_then_wake(int sig) {
  resync_pending = 1;
  // ncurses' handler only records the resize; chaining keeps that intact.
  if (ncurses_resize_action.sa_handler != SIG_DFL && ncurses_resize_action.sa_handler != SIG_IGN) {
    if (ncurses_resize_action.sa_flags & SA_SIGINFO) {
      ncurses_resize_action.sa_sigaction(sig, NULL, NULL);
    } else {
      ncurses_resize_action.sa_handler(sig);
    }
  }
  wake_loop();
}

static void continue_then_wake(int sig) {
  (void)sig;
  resync_pending = 1;
  wake_loop();
}

void pk_install_resize_wakeup(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = resize_then_wake;
  sigemptyset(&action.sa_mask);
  sigaction(SIGWINCH, &action, &ncurses_resize_action);
  struct sigaction on_continue;
  memset(&on_continue, 0, sizeof on_continue);
  on_continue.sa_handler = continue_then_wake;
  sigemptyset(&on_continue.sa_mask);
  sigaction(SIGCONT, &on_continue, NULL);
}

int pk_take_resync(void) { return __atomic_exchange_n(&resync_pending, 0, __ATOMIC_SEQ_CST); }

// Ctrl-Z: ncurses' own handler would stop the picker wherever it is, maybe
// between two chunks of a picture or inside a sixel string, and the shell's
// next output would be taken for the rest of it. The handler only records
// the wish; the loop finishes its pictures, then calls pk_suspend.
static volatile sig_atomic_t suspend_pending = 0;
static int resume_mouse = 0;

static void record_suspend(int sig) {
  (void)sig;
  suspend_pending = 1;
  wake_loop();
}

static void install_suspend_handler(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = record_suspend;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTSTP, &action, NULL);
}

// A picker whose parent ignores SIGTSTP (no job control to continue it)
// keeps ignoring it.
static int suspend_ignored = 0;

void pk_install_suspend_handler(void) {
  suspend_pending = 0;
  struct sigaction current;
  suspend_ignored = sigaction(SIGTSTP, NULL, &current) == 0 && current.sa_handler == SIG_IGN;
  if (!suspend_ignored) install_suspend_handler();
}

int pk_take_suspend(void) { return __atomic_exchange_n(&suspend_pending, 0, __ATOMIC_SEQ_CST); }

// Whether the picker's process group has the terminal. Run under another
// process of the same job (`timeout --foreground`, a pipeline's `sh -c`),
// the shell may already have taken it back: those stop at once on Ctrl-Z,
// while the picker first finishes its pictures.
static int owns_terminal(void) {
  const int fd = tty_fd;
  return fd < 0 || tcgetpgrp(fd) == getpgrp();
}

int pk_owns_terminal(void) { return owns_terminal(); }

static int termination_recorded(void) { return __atomic_load_n(&pending_signal, __ATOMIC_SEQ_CST) != 0; }

// Bytes to the terminal with write(2): no stdio buffer in between, and no
// change of its settings.
static void write_tty(const char *bytes, size_t count) {
  if (tty_file != NULL) fflush(tty_file);
  if (tty_fd < 0 || count == 0) return;
  ssize_t ignored = write(tty_fd, bytes, count);
  (void)ignored;
}

// SIGTTOU blocked around the calls that set the terminal's modes: from a
// process group that lost the terminal, they then fail or proceed instead
// of stopping the picker in the middle of them, where fg's SIGCONT would
// only finish the call and the SIGTSTP after it would stop the picker for
// good with nothing left to continue it.
static void block_ttou(sigset_t *previous) {
  sigset_t ttou;
  sigemptyset(&ttou);
  sigaddset(&ttou, SIGTTOU);
  sigprocmask(SIG_BLOCK, &ttou, previous);
}

void pk_suspend(void) {
  if (suspend_ignored) return;
  sigset_t previous;
  block_ttou(&previous);
  // What was written goes out first: endwin waits for it before it sets
  // the modes, and the shell could take the terminal meanwhile.
  if (tty_file != NULL) {
    fflush(tty_file);
    tcdrain(fileno(tty_file));
  }
  // With the terminal back in the shell's hands, its modes are the
  // shell's: left alone, as ncurses' own Ctrl-Z handler does.
  const int left_screen = owns_terminal();
  if (!left_screen) {
    // A wrapper of the job stopped first and the shell has the terminal:
    // its settings are the shell's now and stay so, but the screen is given
    // back by hand, in sequences alone: the normal screen, a visible
    // cursor, no keypad or mouse modes, whoever holds the terminal.
    write_tty(reset_bytes, reset_length);
  } else {
    // As when the picker ends: drags stop being reported to the shell.
    if (drag_reporting && tty_file != NULL) {
      fputs("\033[?1002l", tty_file);
      fflush(tty_file);
    }
    // The shell may still take the terminal while endwin writes (it waits
    // for the output to drain between its writes): its "Stopped" line and
    // prompt then land on the screen being left, and show again at Enter.
    endwin();
  }
  sigprocmask(SIG_SETMASK, &previous, NULL);
  // Stopped by SIGTSTP itself, as the shell expects; SIGCONT (fg) resumes
  // here and asks the loop to draw everything again.
  signal(SIGTSTP, SIG_DFL);
  sigset_t tstp;
  sigemptyset(&tstp);
  sigaddset(&tstp, SIGTSTP);
  sigprocmask(SIG_UNBLOCK, &tstp, NULL);
  for (;;) {
    raise(SIGTSTP);
    // Continued. By fg, the job holds the terminal again. By `kill %1`
    // (bash sends SIGTERM, then SIGCONT), it does not, and the SIGTERM may
    // still be on its way to another thread's handler: a moment is given
    // for it. By bg, nothing comes: a program that needs the terminal
    // stops again, as it would on reading it.
    if (termination_recorded() || owns_terminal()) break;
    for (int i = 0; i < 50 && !termination_recorded(); i++) nanosleep(&(struct timespec){0, 4000000}, NULL);
    if (termination_recorded()) break;
  }
  install_suspend_handler();
  // Ended while stopped: nothing is put back; the loop ends the picker at
  // once, touching the terminal only if its group holds it
  // (pk_close_terminal).
  if (termination_recorded()) return;
  block_ttou(&previous);
  // ncurses did not leave its mode when the screen was not left: the
  // shell's modes are replaced by the picker's here, and the whole
  // screen is drawn again. Either way the
  // keypad's application mode is asked for again (endwin turned it off,
  // and the shell may have).
  if (!left_screen) {
    // Entered again as it was left: by hand.
    write_tty(enter_bytes, enter_length);
    if (mouse_enabled) write_tty("\033[?1000h\033[?1006h", 16);
    reset_prog_mode();
    // The shell wrote over the screen ncurses still thinks it shows.
    clearok(curscr, TRUE);
  }
  keypad(stdscr, FALSE);
  keypad(stdscr, TRUE);
  sigprocmask(SIG_SETMASK, &previous, NULL);
  resync_pending = 1;
  resume_mouse = drag_reporting;
}

int pk_take_resume_mouse(void) {
  const int wanted = resume_mouse;
  resume_mouse = 0;
  return wanted;
}

void pk_report_drags_again(void) {
  if (tty_file == NULL) return;
  // ncurses' resume sends mode 1000, which replaces 1002: after it, again.
  fputs("\033[?1002h", tty_file);
  fflush(tty_file);
}

int pk_window_size(int *out_rows, int *out_columns, int *pixel_width, int *pixel_height) {
  struct winsize size;
  if (tty_fd < 0 || ioctl(tty_fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
  *out_rows = size.ws_row;
  *out_columns = size.ws_col;
  *pixel_width = size.ws_xpixel;
  *pixel_height = size.ws_ypixel;
  return 0;
}

void pk_resync_screen(int new_rows, int new_columns) {
  if (new_rows != LINES || new_columns != COLS) resizeterm(new_rows, new_columns);
  clearok(curscr, TRUE);
}

long pk_read_input(unsigned char *buffer, unsigned long capacity) {
  if (tty_file == NULL) return -1;
  struct pollfd ready = {.fd = fileno(tty_file), .events = POLLIN};
  // The descriptor stays blocking (ncurses writes through it), so look first.
  int found = pk_io_poll(&ready, 1, 0);
  if (found <= 0) return found;
  if (ready.revents & (POLLERR | POLLHUP | POLLNVAL) && !(ready.revents & POLLIN)) return -1;
  ssize_t n = pk_io_read_once(fileno(tty_file), buffer, capacity);
  return n <= 0 ? -1 : n;
}

int pk_write_tty(const unsigned char *bytes, unsigned long count) {
  if (tty_file == NULL) return -1;
  return pk_io_write_all(fileno(tty_file), bytes, count);
}

long pk_write_tty_available(const unsigned char *bytes, unsigned long count) {
  if (tty_file == NULL) return -1;
  int fd = fileno(tty_file);
  // The descriptor is ncurses' too and stays blocking for it: non-blocking
  // only for this one write (all writes happen on the loop's thread).
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return -1;
  ssize_t n;
  do n = write(fd, bytes, count);
  while (n < 0 && errno == EINTR);
  int saved_errno = errno;
  fcntl(fd, F_SETFL, flags);
  if (n >= 0) return (long)n;
  return saved_errno == EAGAIN || saved_errno == EWOULDBLOCK ? 0 : -1;
}

int pk_can_address_cursor(void) {
  char *cup = tigetstr("cup");
  return cup != NULL && cup != (char *)-1;
}

static void append_to(char *bytes, size_t capacity, size_t *length, const char *value) {
  if (value == NULL || value == (char *)-1) return;
  size_t count = strlen(value);
  if (*length + count >= capacity) return;
  memcpy(bytes + *length, value, count);
  *length += count;
}

static void append_capability(const char *name) {
  append_to(reset_bytes, sizeof reset_bytes, &reset_length, tigetstr(name));
}

// Two buffers: the handler reads the one published last while the next
// frame fills the other.
static unsigned char cleanup_bytes[2][64 * 1024];
static volatile size_t cleanup_length[2] = {0, 0};
static volatile int cleanup_current = -1;

void pk_set_crash_cleanup(const unsigned char *bytes, unsigned long count) {
  // A crash can come while an image string is half written: ST ends it, so
  // the deletes after it are read as commands, not as image data.
  static const unsigned char string_end[2] = {0x1b, '\\'};
  if (count + sizeof string_end > sizeof cleanup_bytes[0]) count = 0;  // too many to list: leave them
  int next = cleanup_current == 0 ? 1 : 0;
  size_t length = 0;
  if (count > 0 && bytes != NULL) {
    memcpy(cleanup_bytes[next], string_end, sizeof string_end);
    memcpy(cleanup_bytes[next] + sizeof string_end, bytes, count);
    length = sizeof string_end + count;
  }
  cleanup_length[next] = length;
  __atomic_store_n(&cleanup_current, next, __ATOMIC_SEQ_CST);
}

static void restore_after_crash(int sig) {
  int fd = tty_fd;
  int cleanup = __atomic_load_n(&cleanup_current, __ATOMIC_SEQ_CST);
  if (fd >= 0 && cleanup >= 0 && cleanup_length[cleanup] > 0) {
    ssize_t ignored = write(fd, cleanup_bytes[cleanup], cleanup_length[cleanup]);
    (void)ignored;
  }
  if (fd >= 0) {
    ssize_t ignored = write(fd, reset_bytes, reset_length);
    (void)ignored;
    if (saved_modes_valid) tcsetattr(fd, TCSANOW, &saved_modes);
  }
  // The crash report is for the user's terminal (dup2 and close are
  // async-signal-safe).
  if (saved_stderr >= 0) dup2(saved_stderr, 2);
  signal(sig, SIG_DFL);
  raise(sig);
}

void pk_install_crash_handler(void) {
  reset_length = 0;
  append_capability("sgr0");
  append_capability("cnorm");
  append_capability("rmkx");
  append_capability("rmcup");
  enter_length = 0;
  append_to(enter_bytes, sizeof enter_bytes, &enter_length, tigetstr("smcup"));
  append_to(enter_bytes, sizeof enter_bytes, &enter_length, tigetstr("civis"));
  append_to(enter_bytes, sizeof enter_bytes, &enter_length, tigetstr("smkx"));
  // Mouse reporting off (xterm protocol), harmless where unsupported.
  const char *mouse_off = "\033[?1000l\033[?1002l\033[?1006l";
  size_t length = strlen(mouse_off);
  if (reset_length + length < sizeof reset_bytes) {
    memcpy(reset_bytes + reset_length, mouse_off, length);
    reset_length += length;
  }
  // Its own stack, so that a stack overflow can still restore the terminal.
  static char alternate_stack[64 * 1024];
  stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack, .ss_flags = 0};
  if (!host_stack_saved && sigaltstack(&stack, &host_stack) == 0) {
    host_stack_saved = 1;
  } else {
    sigaltstack(&stack, NULL);
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = restore_after_crash;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_ONSTACK;
  int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};
  for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
    sigaction(crash_signals[i], &action, NULL);
}

int pk_put_cell(WINDOW *win, int y, int x, const wchar_t *chars, attr_t attrs, int pair) {
  cchar_t cell;
  int extended_pair = pair;
  if (setcchar(&cell, chars, attrs, 0, &extended_pair) != OK) return ERR;
  return mvwadd_wch(win, y, x, &cell);
}

int pk_terminfo_colors(const char *name) {
  // setupterm replaces cur_term: put back whatever was there (nothing,
  // before the screen opens).
  TERMINAL *saved = cur_term;
  int status = 0;
  if (setupterm((char *)name, -1, &status) != OK) {
    set_curterm(saved);
    return -1;
  }
  int colors = tigetnum("colors");
  TERMINAL *probed = set_curterm(saved);
  if (probed != NULL && probed != saved) del_curterm(probed);
  return colors < 0 ? 0 : colors;
}

int pk_terminal_colors(void) {
  if (!has_colors()) return 0;
  int colors = tigetnum("colors");
  return colors > 0 ? colors : 0;
}

void pk_configure_screen(int use_color) {
  cbreak();
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  // Input is read and decoded by the picker itself; ncurses must not stop
  // a refresh half-way because keys are waiting.
  typeahead(-1);
  curs_set(0);
  if (use_color && has_colors()) {
    start_color();
    use_default_colors();
  }
}

int pk_enable_mouse(void) {
  mmask_t wanted = BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
  mmask_t got = mousemask(wanted, NULL);
  mouse_enabled = got != 0;
  if (got != 0 && tty_file != NULL) {
    // Moves with a button held are reported too (a drag on the timeline's
    // scale); terminals without the mode ignore it.
    fputs("\033[?1002h", tty_file);
    fflush(tty_file);
    drag_reporting = 1;
  }
  return got != 0;
}
