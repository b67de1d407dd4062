// A thin C layer over ncursesw for Swift: the wide-character API, the macros
// and global variables Swift cannot import, and the signal and crash handling
// that has to live in C (async-signal-safe code, setjmp-free restore).
#ifndef PICKER_CNCURSES_H
#define PICKER_CNCURSES_H

// SwiftPM drops pkg-config's -D flags, so the wide API is switched on here.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <curses.h>
#include <wchar.h>

// Attribute macros become constants Swift can see.
static const attr_t pk_attr_normal = A_NORMAL;
static const attr_t pk_attr_bold = A_BOLD;
static const attr_t pk_attr_dim = A_DIM;
static const attr_t pk_attr_reverse = A_REVERSE;
static const attr_t pk_attr_underline = A_UNDERLINE;

// Global variables Swift 6 rejects as shared mutable state.
static inline WINDOW *pk_stdscr(void) { return stdscr; }
static inline int pk_color_pairs(void) { return COLOR_PAIRS; }
static inline int pk_key_code_yes(void) { return KEY_CODE_YES; }

/// Why `pk_open_terminal` failed.
typedef enum {
  PK_OPEN_OK = 0,
  PK_OPEN_NO_TTY = 1,
  PK_OPEN_UNKNOWN_TERM = 2,
} pk_open_status;

/// Opens /dev/tty, saving its modes so a crash can restore them. Returns
/// the descriptor, or -1. Queries can be exchanged on it before ncurses
/// starts (`pk_raw_mode`, `pk_read_input`, `pk_write_tty`).
int pk_open_tty(void);
/// Closes the tty `pk_open_tty` opened, its modes as they were, when the
/// screen could not be started (no-op when it is not open).
void pk_close_tty(void);

/// Puts the tty in raw mode (no echo, no line buffering, no signals from
/// keys) without discarding pending input, or back to the saved modes.
int pk_raw_mode(int on);

/// Starts ncurses on the tty `pk_open_tty` opened, with `termname` (NULL:
/// $TERM). Keeps stdin and stdout free for data.
SCREEN *pk_open_terminal(const char *termname, pk_open_status *status);

/// Where stderr goes while the screen is up (the log's descriptor; -1:
/// /dev/null); only when stderr is the terminal. Call before opening.
void pk_set_stderr_target(int fd);

/// Ends ncurses, frees the screen and closes /dev/tty.
void pk_close_terminal(SCREEN *screen);

/// The file descriptor of /dev/tty while the terminal is open, else -1.
int pk_tty_fd(void);

/// Installs handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT and every other
/// signal that would end the process (SIGUSR1/2, SIGALRM, SIGVTALRM,
/// SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT) that only record the
/// signal; the event loop polls `pk_take_signal`. Call before newterm so
/// ncurses leaves them alone.
void pk_install_signal_handlers(void);

/// Puts back the handlers (and the signal stack) the process had before
/// the first `pk_install_signal_handlers`: ncurses' and the picker's are
/// gone. Call once the terminal is closed.
void pk_restore_signal_handlers(void);

/// The last signal recorded, or 0; clears it.
int pk_take_signal(void);
/// Whether a signal is recorded, without taking it.
int pk_signal_pending(void);

/// A descriptor that becomes readable when a signal arrives (SIGINT, SIGTERM,
/// SIGHUP, SIGQUIT, and SIGWINCH once `pk_install_resize_wakeup` ran), so the
/// event loop's poll() never sleeps through one. `pk_drain_wakeups` empties it.
int pk_signal_fd(void);
void pk_drain_wakeups(void);

/// After newterm: SIGWINCH still goes to ncurses' own handler and also
/// wakes the event loop; SIGCONT (back from Ctrl-Z, perhaps at another size)
/// does too. `pk_take_resync` says whether either came since the last call.
void pk_install_resize_wakeup(void);
int pk_take_resync(void);

/// Ctrl-Z (SIGTSTP) is recorded and wakes the loop instead of stopping the
/// picker at once; `pk_take_suspend` says whether it came. `pk_suspend`
/// leaves the screen and stops the process; it returns once continued,
/// with a resync recorded.
void pk_install_suspend_handler(void);
int pk_take_suspend(void);
void pk_suspend(void);
/// Whether the picker's process group holds the terminal (a stopped or
/// killed job's does not: the shell does).
int pk_owns_terminal(void);
/// After a resume: whether drags must be asked for again, once the next
/// frame's resume of the screen has set the plain mouse mode.
int pk_take_resume_mouse(void);
void pk_report_drags_again(void);

/// The terminal's size in cells and pixels (pixels 0 when unknown), from
/// TIOCGWINSZ on /dev/tty; returns 0 on success.
int pk_window_size(int *rows, int *columns, int *pixel_width, int *pixel_height);

/// Adopts a new size (resizeterm) and makes the next refresh repaint every
/// cell, as after a resize or a return from Ctrl-Z.
void pk_resync_screen(int rows, int columns);

/// Reads what the terminal has sent, without waiting: up to `capacity`
/// bytes, 0 when nothing is there, -1 on error.
long pk_read_input(unsigned char *buffer, unsigned long capacity);

/// Writes all bytes to the terminal (after ncurses' own output is flushed).
int pk_write_tty(const unsigned char *bytes, unsigned long count);
/// Writes what the tty takes now without waiting: the count written, 0
/// when it is full, -1 when it is gone. Pictures go out this way, as the
/// terminal reads them.
long pk_write_tty_available(const unsigned char *bytes, unsigned long count);

/// Whether the terminal can move the cursor (TERM=dumb cannot draw a grid).
int pk_can_address_cursor(void);

/// After the terminal is open: on SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT
/// and SIGTRAP, write precomputed reset sequences, restore the saved terminal
/// modes, then die of the same signal.
void pk_install_crash_handler(void);

/// Bytes the crash handler writes before its reset (a graphics protocol's
/// deletes of our own images); replaced whole, at most 64 KiB.
void pk_set_crash_cleanup(const unsigned char *bytes, unsigned long count);

/// Draws one cell: a base character plus up to four combining characters.
/// `pair` may exceed 32767 (passed through setcchar's opts).
int pk_put_cell(WINDOW *win, int y, int x, const wchar_t *chars, attr_t attrs, int pair);

/// How many colours the terminal's terminfo entry says it has (0 if none).
/// Unlike COLORS, this is known before start_color().
int pk_terminal_colors(void);
// The colours terminfo gives `name` (0 for none), or -1 when there is no
// such entry; checked before anything is sent to the terminal.
int pk_terminfo_colors(const char *name);

/// Turns on the terminal features the picker uses (cbreak, noecho, keypad,
/// hidden cursor, colours when present). Keys are read and decoded by the
/// picker itself, so none of ncurses' input settings apply.
void pk_configure_screen(int use_color);

/// Enables mouse reports (clicks, wheel); returns 1 when the terminal has them.
int pk_enable_mouse(void);
#endif
