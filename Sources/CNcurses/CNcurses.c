#include "CNcurses.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static FILE *tty_file = NULL;
static struct termios saved_modes;
static int saved_modes_valid = 0;
static volatile sig_atomic_t pending_signal = 0;

// Reset bytes computed while it is safe to call terminfo, written from the
// crash handler with write(2) only.
static char reset_bytes[256];
static size_t reset_length = 0;

SCREEN *pk_open_terminal(const char *termname, pk_open_status *status) {
  *status = PK_OPEN_OK;
  tty_file = fopen("/dev/tty", "r+");
  if (tty_file == NULL) {
    *status = PK_OPEN_NO_TTY;
    return NULL;
  }
  int fd = fileno(tty_file);
  // The descriptor must not leak into child processes (custom sources).
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (tcgetattr(fd, &saved_modes) == 0) saved_modes_valid = 1;
  SCREEN *screen = newterm(termname, tty_file, tty_file);
  if (screen == NULL) {
    fclose(tty_file);
    tty_file = NULL;
    *status = PK_OPEN_UNKNOWN_TERM;
    return NULL;
  }
  set_term(screen);
  return screen;
}

void pk_close_terminal(SCREEN *screen) {
  endwin();
  if (screen != NULL) delscreen(screen);
  if (tty_file != NULL) {
    if (saved_modes_valid) tcsetattr(fileno(tty_file), TCSADRAIN, &saved_modes);
    fclose(tty_file);
    tty_file = NULL;
  }
}

int pk_tty_fd(void) { return tty_file == NULL ? -1 : fileno(tty_file); }

static void record_signal(int sig) { pending_signal = sig; }

void pk_install_signal_handlers(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: poll() must return so the loop sees the flag.
  action.sa_flags = 0;
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGHUP, &action, NULL);
  sigaction(SIGQUIT, &action, NULL);
  // A closed pipe on stdout must be an error from write(), not a silent death.
  signal(SIGPIPE, SIG_IGN);
}

int pk_take_signal(void) {
  int sig = pending_signal;
  pending_signal = 0;
  return sig;
}

static void append_capability(const char *name) {
  char *value = tigetstr(name);
  if (value == NULL || value == (char *)-1) return;
  size_t length = strlen(value);
  if (reset_length + length >= sizeof reset_bytes) return;
  memcpy(reset_bytes + reset_length, value, length);
  reset_length += length;
}

static void restore_after_crash(int sig) {
  if (tty_file != NULL) {
    int fd = fileno(tty_file);
    ssize_t ignored = write(fd, reset_bytes, reset_length);
    (void)ignored;
    if (saved_modes_valid) tcsetattr(fd, TCSANOW, &saved_modes);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void pk_install_crash_handler(void) {
  reset_length = 0;
  append_capability("sgr0");
  append_capability("cnorm");
  append_capability("rmkx");
  append_capability("rmcup");
  // Mouse reporting off (xterm protocol), harmless where unsupported.
  const char *mouse_off = "\033[?1000l\033[?1002l\033[?1006l";
  size_t length = strlen(mouse_off);
  if (reset_length + length < sizeof reset_bytes) {
    memcpy(reset_bytes + reset_length, mouse_off, length);
    reset_length += length;
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = restore_after_crash;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
  for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
    sigaction(crash_signals[i], &action, NULL);
}

int pk_put_cell(WINDOW *win, int y, int x, const wchar_t *chars, attr_t attrs, int pair) {
  cchar_t cell;
  int extended_pair = pair;
  if (setcchar(&cell, chars, attrs, 0, &extended_pair) != OK) return ERR;
  return mvwadd_wch(win, y, x, &cell);
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
  nodelay(stdscr, TRUE);
  curs_set(0);
  set_escdelay(25);
  if (use_color && has_colors()) {
    start_color();
    use_default_colors();
  }
}

int pk_enable_mouse(void) {
  mmask_t wanted = BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
  mmask_t got = mousemask(wanted, NULL);
  mouseinterval(250);
  return got != 0;
}

int pk_get_mouse(int *x, int *y, int *button, int *clicks) {
  MEVENT event;
  if (getmouse(&event) != OK) return 0;
  *x = event.x;
  *y = event.y;
  *clicks = 1;
  *button = 0;
  if (event.bstate & BUTTON1_DOUBLE_CLICKED) {
    *button = 1;
    *clicks = 2;
  } else if (event.bstate & BUTTON1_CLICKED) {
    *button = 1;
  } else if (event.bstate & BUTTON4_PRESSED) {
    *button = 4;
  } else if (event.bstate & BUTTON5_PRESSED) {
    *button = 5;
  }
  return 1;
}
