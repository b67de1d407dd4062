// Ratings and labels written into XMP (xmp_sidecar.h). exempi parses and
// serializes packets; what it is given is checked here first, because it
// is not safe on every input: it recurses once per nested element (about
// 100,000 levels overflow an 8 MiB stack; 10,000 take it a second and 300
// MB to serialize). Files are replaced whole, never edited in place, and a
// JPEG's other bytes are copied here, not by exempi's XMPFiles: its JPEG
// handler reconciles XMP with EXIF and IPTC on every write (it rewrote
// IPTC and rounded the GPS position of a test photo), and it replaces a
// packet it cannot parse with a fresh one.
#define _GNU_SOURCE  // renameat2, copy_file_range, strerror_r's GNU form
#include "xmp_sidecar.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "optional_exempi.h"
#include "system_calls.h"

enum {
  largest_sidecar = 4 << 20,
  // Far deeper than the packets programs write (darktable's history is 6
  // elements deep, digiKam's face regions 9), and shallow enough that
  // exempi's recursion (about 150 bytes of stack a level) stays within 20
  // KiB of any thread's stack.
  deepest = 128,
  // Times a change is made when the file keeps changing while it is made.
  attempts = 5,
};

static const char ns_xmp[] = "http://ns.adobe.com/xap/1.0/";
static const char ns_darktable[] = "http://darktable.sf.net/";
static const char ns_digikam[] = "http://www.digikam.org/ns/1.0/";

// MARK: Errors

static int fail(char *error, size_t capacity, const char *format, ...) {
  if (capacity > 0) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error, capacity, format, arguments);
    va_end(arguments);
  }
  return -1;
}

// strerror's words, without its shared buffer (several threads may write).
static const char *why(int number, char *buffer, size_t size) {
#if defined(__GLIBC__)
  return strerror_r(number, buffer, size);
#else
  if (strerror_r(number, buffer, size) != 0) snprintf(buffer, size, "error %d", number);
  return buffer;
#endif
}

static int fail_errno(char *error, size_t capacity, const char *doing, const char *path) {
  char words[128];
  const char *text = why(errno, words, sizeof words);
  return fail(error, capacity, "%s %s: %s", doing, path, text);
}

// MARK: exempi

// exempi is started once: xmp_init is not safe to call from two threads.
// After that the writes of this process take turns, whole: two threads
// writing one file would otherwise each find it changed and start over,
// and every use of exempi is serialized with them (the toolkit's own
// locking depends on how it was built). A write is one keystroke of the
// user's; waiting for another costs nothing anyone sees.
static pthread_once_t started = PTHREAD_ONCE_INIT;
static int start_state;  // 1 ready, -1 not
static char start_error[240];
static pthread_mutex_t writing = PTHREAD_MUTEX_INITIALIZER;

static void start(void) {
  start_state = -1;
  if (!pk_open_exempi()) {
    snprintf(start_error, sizeof start_error, "cannot open exempi: %s", pk_exempi_library.error);
    return;
  }
  if (!xmp_init()) {
    snprintf(start_error, sizeof start_error, "exempi did not start (error %d)", xmp_get_error());
    return;
  }
  // Known before any packet is read, so that a file without them can be
  // asked whether it has their properties.
  XmpStringPtr prefix = xmp_string_new();
  int registered = prefix != NULL && xmp_register_namespace(ns_darktable, "darktable", prefix) &&
                   xmp_register_namespace(ns_digikam, "digiKam", prefix);
  if (prefix != NULL) xmp_string_free(prefix);
  if (!registered) {
    snprintf(start_error, sizeof start_error, "exempi refused a namespace (error %d)", xmp_get_error());
    return;
  }
  start_state = 1;
}

static int ready(char *error, size_t capacity) {
  pthread_once(&started, start);
  if (start_state == 1) return 1;
  fail(error, capacity, "%s", start_error);
  return 0;
}

int pk_xmp_available(char *error, size_t capacity) {
  if (capacity > 0) error[0] = 0;
  return ready(error, capacity);
}

// MARK: What exempi may be given

static int valid_utf8(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n;) {
    uint8_t c = p[i];
    if (c < 0x80) {
      // ASCII runs are most of any packet: 8 bytes at a time.
      while (i + 8 <= n) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        if (word & 0x8080808080808080u) break;
        i += 8;
      }
      if (i < n && p[i] < 0x80) i++;
      continue;
    }
    size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (c < 0xC2 || c > 0xF4 || n - i < length) return 0;
    uint32_t point = c & (0x7F >> length);
    for (size_t k = 1; k < length; k++) {
      if ((p[i + k] & 0xC0) != 0x80) return 0;
      point = point << 6 | (p[i + k] & 0x3F);
    }
    // Overlong forms, UTF-16's surrogates and past U+10FFFF.
    if ((length == 3 && point < 0x800) || (length == 4 && (point < 0x10000 || point > 0x10FFFF)) ||
        (point >= 0xD800 && point <= 0xDFFF))
      return 0;
    i += length;
  }
  return 1;
}

static const uint8_t *find(const uint8_t *from, const uint8_t *end, const char *text) {
  size_t length = strlen(text);
  for (const uint8_t *p = from; (size_t)(end - p) >= length;) {
    p = memchr(p, text[0], (size_t)(end - p) - length + 1);
    if (p == NULL) return NULL;
    if (memcmp(p, text, length) == 0) return p;
    p++;
  }
  return NULL;
}

// Whether the element name [name, name + length) is `local` in any prefix.
static int named(const uint8_t *name, size_t length, const char *local) {
  size_t l = strlen(local);
  return length >= l && memcmp(name + length - l, local, l) == 0 && (length == l || name[length - l - 1] == ':');
}

// Why `data` must not be given to exempi (as a sidecar, or a JPEG's
// packet), or NULL when it may: one pass over the tags, as far as it takes
// to count their nesting, find declarations and see that the document is
// an x:xmpmeta with rdf:RDF in it. exempi still parses it afterwards.
static const char *refusal(const uint8_t *data, size_t size) {
  if (!valid_utf8(data, size)) return "is not valid UTF-8";
  const uint8_t *p = data, *end = data + size;
  int depth = 0, roots = 0, rdf = 0;
  while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
    if (++p >= end) return "is cut short";
    if (*p == '?') {  // the XML declaration, xpacket
      if ((p = find(p, end, "?>")) == NULL) return "is cut short";
      continue;
    }
    if (*p == '!') {
      if (end - p >= 3 && memcmp(p, "!--", 3) == 0) p = find(p + 3, end, "-->");
      else if (end - p >= 8 && memcmp(p, "![CDATA[", 8) == 0) p = find(p + 8, end, "]]>");
      else return "has a DOCTYPE or ENTITY declaration";
      if (p == NULL) return "is cut short";
      continue;
    }
    if (*p == '/') {
      if (--depth < 0) return "closes an element it never opened";
      if ((p = memchr(p, '>', (size_t)(end - p))) == NULL) return "is cut short";
      continue;
    }
    const uint8_t *name = p;
    while (p < end && *p != '>' && *p != '/' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') p++;
    if (p == name) return "is not XML";
    size_t name_length = (size_t)(p - name);
    for (uint8_t quote = 0; p < end && (quote != 0 || *p != '>'); p++) {
      if (quote != 0 && *p == quote) quote = 0;
      else if (quote == 0 && (*p == '"' || *p == '\'')) quote = *p;
    }
    if (p >= end) return "is cut short";
    if (depth == 0) {
      if (roots++ > 0) return "has more than one root element";
      if (!named(name, name_length, "xmpmeta") && !named(name, name_length, "xapmeta"))
        return "has no x:xmpmeta element";
    } else if (depth == 1 && named(name, name_length, "RDF")) {
      rdf = 1;
    }
    if (p[-1] != '/' && ++depth > deepest) return "nests elements more than 128 deep";
  }
  if (depth != 0) return "is cut short";
  if (!rdf) return roots == 0 ? "has no x:xmpmeta element" : "has no rdf:RDF in its x:xmpmeta";
  return NULL;
}

static int blank(const uint8_t *p, size_t n) {
  if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3, n -= 3;
  for (size_t i = 0; i < n; i++)
    if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n') return 0;
  return 1;
}

// Checks `data` and parses it into `xmp`: 0, or -1 with `error` saying
// why, in the user's words.
static int parse(XmpPtr xmp, const uint8_t *data, size_t size, const char *what, char *error, size_t capacity) {
  const char *refused = refusal(data, size);
  if (refused != NULL) return fail(error, capacity, "not XMP: %s %s", what, refused);
  if (!xmp_parse(xmp, (const char *)data, size))
    return fail(error, capacity, "not XMP: %s cannot be parsed (exempi error %d)", what, xmp_get_error());
  return 0;
}

// MARK: The change

static int valid_change(const pk_xmp_change *change) {
  return change != NULL && (!change->set_rating || (change->rating >= -1 && change->rating <= 5)) &&
         (!change->set_label || (change->label >= 0 && change->label <= 5));
}

// Whether `name` in `ns` is the simple value `value`.
static int has_value(XmpPtr xmp, const char *ns, const char *name, const char *value) {
  XmpStringPtr text = xmp_string_new();
  int same = text != NULL && xmp_get_property(xmp, ns, name, text, NULL) && strcmp(xmp_string_cstr(text), value) == 0;
  if (text != NULL) xmp_string_free(text);
  return same;
}

// The change, property by property, as each program reads it; 0, or the
// name of the property that could not be set.
static const char *apply(XmpPtr xmp, const pk_xmp_change *change) {
  static const char *const names[] = {"Red", "Yellow", "Green", "Blue", "Purple"};
  static const char *const darktable[] = {"0", "1", "2", "3", "4"};
  // digiKam's numbers: 0 none, 1 red, 3 yellow, 4 green, 5 blue, 6 magenta.
  static const char *const digikam[] = {"0", "1", "3", "4", "5", "6"};
  if (change->set_rating) {
    if (!xmp_set_property_int32(xmp, ns_xmp, "Rating", change->rating, 0)) return "xmp:Rating";
    if (xmp_has_property(xmp, ns_digikam, "PickLabel")) {
      // Rejected is digiKam's pick label 1; any other rating lifts that,
      // and leaves its other pick labels (pending, accepted) as they were.
      const char *pick = NULL;
      if (change->rating == -1) pick = "1";
      else if (has_value(xmp, ns_digikam, "PickLabel", "1")) pick = "0";
      if (pick != NULL && !xmp_set_property(xmp, ns_digikam, "PickLabel", pick, 0)) return "digiKam:PickLabel";
    }
  }
  if (change->set_label) {
    int label = change->label;
    if (label == 0) {
      if (xmp_has_property(xmp, ns_xmp, "Label") && !xmp_delete_property(xmp, ns_xmp, "Label")) return "xmp:Label";
    } else if (!xmp_set_property(xmp, ns_xmp, "Label", names[label - 1], 0)) {
      return "xmp:Label";
    }
    if (xmp_has_property(xmp, ns_darktable, "colorlabels")) {
      // darktable allows several labels; the picker's one replaces them.
      if (!xmp_delete_property(xmp, ns_darktable, "colorlabels") ||
          (label != 0 && !xmp_append_array_item(xmp, ns_darktable, "colorlabels",
                                                XMP_PROP_VALUE_IS_ARRAY | XMP_PROP_ARRAY_IS_ORDERED,
                                                darktable[label - 1], 0)))
        return "darktable:colorlabels";
    }
    if (xmp_has_property(xmp, ns_digikam, "ColorLabel") &&
        !xmp_set_property(xmp, ns_digikam, "ColorLabel", digikam[label], 0))
      return "digiKam:ColorLabel";
  }
  return NULL;
}

// The sidecar `old` (NULL, or blank: a new one) with the change made,
// serialized as darktable writes its sidecars (an XML declaration, no
// packet wrapper, compact RDF) into malloc'd `*out`. 0, or -1 with `error`.
static int changed_sidecar(const uint8_t *old, size_t old_size, const pk_xmp_change *change, const char *path,
                           char **out, size_t *out_size, char *error, size_t capacity) {
  static const char declaration[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  int rc = -1;
  XmpPtr xmp = xmp_new_empty();
  XmpStringPtr text = xmp_string_new();
  if (xmp == NULL || text == NULL) {
    fail(error, capacity, "cannot write %s: out of memory", path);
  } else if (old == NULL || blank(old, old_size) || parse(xmp, old, old_size, path, error, capacity) == 0) {
    const char *refused = apply(xmp, change);
    if (refused != NULL) {
      fail(error, capacity, "cannot write %s: exempi refused %s (error %d)", path, refused, xmp_get_error());
    } else if (!xmp_serialize(xmp, text, XMP_SERIAL_OMITPACKETWRAPPER | XMP_SERIAL_USECOMPACTFORMAT, 0)) {
      fail(error, capacity, "cannot write %s: exempi could not serialize it (error %d)", path, xmp_get_error());
    } else {
      size_t length = xmp_string_len(text);
      *out = malloc(sizeof declaration - 1 + length);
      if (*out == NULL) {
        fail(error, capacity, "cannot write %s: out of memory", path);
      } else {
        memcpy(*out, declaration, sizeof declaration - 1);
        memcpy(*out + sizeof declaration - 1, xmp_string_cstr(text), length);
        *out_size = sizeof declaration - 1 + length;
        rc = 0;
      }
    }
  }
  if (text != NULL) xmp_string_free(text);
  if (xmp != NULL) xmp_free(xmp);
  return rc;
}

// MARK: Files

// What a file was when it was read, to tell whether it changed since.
typedef struct {
  int exists;
  struct stat info;
} file_state;

static int same_file(const file_state *a, const file_state *b) {
  if (a->exists != b->exists) return 0;
  if (!a->exists) return 1;
  const struct stat *x = &a->info, *y = &b->info;
  return x->st_dev == y->st_dev && x->st_ino == y->st_ino && x->st_size == y->st_size &&
         x->st_mtim.tv_sec == y->st_mtim.tv_sec && x->st_mtim.tv_nsec == y->st_mtim.tv_nsec &&
         x->st_ctim.tv_sec == y->st_ctim.tv_sec && x->st_ctim.tv_nsec == y->st_ctim.tv_nsec;
}

static int state_now(const char *path, file_state *state) {
  state->exists = lstat(path, &state->info) == 0;
  return state->exists || errno == ENOENT ? 0 : -1;
}

// The file to write: `path`, or where its symbolic links lead (renaming
// over the link would replace it with a file).
static int resolve(const char *path, char *target, char *error, size_t capacity) {
  struct stat info;
  if (lstat(path, &info) == 0 && S_ISLNK(info.st_mode)) {
    if (realpath(path, target) == NULL) return fail_errno(error, capacity, "cannot write", path);
    return 0;
  }
  if (strlen(path) >= PATH_MAX) return fail(error, capacity, "cannot write %s: the path is too long", path);
  strcpy(target, path);
  return 0;
}

// A new file beside `target`, named after it, open for writing: its
// descriptor, or -1 with `error`. New files get 0644 less the umask from
// the kernel; the caller sets an existing file's bits.
// A temporary file of ours: "." + a name + "." + 12 hex digits + ".tmp".
static int is_leftover(const char *name) {
  size_t length = strlen(name);
  if (length < 20 || name[0] != '.') return 0;
  const char *tail = name + length - 17;
  if (tail[0] != '.' || strcmp(tail + 13, ".tmp") != 0) return 0;
  for (int i = 1; i <= 12; i++) {
    char c = tail[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return 0;
  }
  return 1;
}

// Removes what writes killed midway left in `target`'s folder (a whole
// JPEG's copy for an embedded rating): temporary files of ours, a minute
// old or more, so a write still running elsewhere keeps its own. Once per
// folder per run: a folder's listing costs about as much as a write.
static void sweep_leftovers(const char *target, size_t folder) {
  static char swept[PATH_MAX];
  char directory[PATH_MAX];
  if (folder == 0) strcpy(directory, ".");
  else snprintf(directory, sizeof directory, "%.*s", (int)folder, target);
  if (strcmp(swept, directory) == 0) return;
  snprintf(swept, sizeof swept, "%s", directory);
  DIR *listing = opendir(directory);
  if (listing == NULL) return;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct dirent *entry;
  while ((entry = readdir(listing)) != NULL) {
    if (!is_leftover(entry->d_name)) continue;
    struct stat info;
    if (fstatat(dirfd(listing), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode)) continue;
    if (now.tv_sec - info.st_mtim.tv_sec >= 60) unlinkat(dirfd(listing), entry->d_name, 0);
  }
  closedir(listing);
}

static int create_beside(const char *target, char *temp, char *error, size_t capacity) {
  static unsigned counter;
  const char *slash = strrchr(target, '/');
  size_t folder = slash != NULL ? (size_t)(slash - target) + 1 : 0;
  const char *base = target + folder;
  // A name of at most NAME_MAX: the base cut to 200 bytes, a dot before
  // it so that folder listings and the picker's scan pass it over.
  int base_length = (int)(strlen(base) < 200 ? strlen(base) : 200);
  sweep_leftovers(target, folder);
  for (int tries = 0; tries < 100; tries++) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long long noise = (unsigned long long)now.tv_nsec * 2654435761u ^ (unsigned long long)getpid() << 20 ^
                               __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
    int n = snprintf(temp, PATH_MAX, "%.*s.%.*s.%012llx.tmp", (int)folder, target, base_length, base,
                     noise & 0xFFFFFFFFFFFFull);
    if (n < 0 || n >= PATH_MAX) return fail(error, capacity, "cannot write %s: the path is too long", target);
    int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd >= 0) return fd;
    if (errno != EEXIST) return fail_errno(error, capacity, "cannot write", target);
  }
  return fail(error, capacity, "cannot write %s: no free temporary name beside it", target);
}

// Gives the new file the old one's permission bits (and owner, where
// allowed), then makes its bytes durable.
static int finish_file(int fd, const file_state *old, const char *target, char *error, size_t capacity) {
  if (old->exists) {
    if (fchmod(fd, old->info.st_mode & 0777) != 0) return fail_errno(error, capacity, "cannot write", target);
    // Only root may give a file away; for everyone else this is a no-op
    // or refused, and the file is theirs as any file they write is.
    if (old->info.st_uid != geteuid() || old->info.st_gid != getegid()) {
      int refused = fchown(fd, old->info.st_uid, old->info.st_gid);
      (void)refused;
    }
  }
  if (fsync(fd) != 0) return fail_errno(error, capacity, "cannot write", target);
  return 0;
}

static void sync_folder(const char *target) {
  char folder[PATH_MAX];
  const char *slash = strrchr(target, '/');
  if (slash == NULL) strcpy(folder, ".");
  else if (slash == target) strcpy(folder, "/");
  else snprintf(folder, sizeof folder, "%.*s", (int)(slash - target), target);
  int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  // Some file systems refuse a folder's fsync; the rename stands anyway.
  (void)fsync(fd);
  close(fd);
}

// Puts `temp` where `target` is, unless `target` is no longer what was
// read (`before`): 0 done, 1 changed meanwhile (temp removed: do it all
// again), -1 error (temp removed).
static int put_in_place(const char *temp, const char *target, const file_state *before, char *error,
                        size_t capacity) {
  file_state now;
  if (state_now(target, &now) != 0) {
    fail_errno(error, capacity, "cannot write", target);
    unlink(temp);
    return -1;
  }
  if (!same_file(before, &now)) {
    unlink(temp);
    return 1;
  }
  int rc;
  if (before->exists) {
    rc = rename(temp, target);
  } else {
    // A new file must not replace one another program made meanwhile.
#ifdef RENAME_NOREPLACE
    rc = renameat2(AT_FDCWD, temp, AT_FDCWD, target, RENAME_NOREPLACE);
    if (rc != 0 && (errno == EINVAL || errno == ENOSYS))
#endif
    {
      // Without renameat2's flag (older kernels, some file systems): a
      // hard link fails as well when the name is taken.
      rc = link(temp, target);
      if (rc == 0) unlink(temp);
      else if (errno != EEXIST) rc = rename(temp, target);  // no hard links here either
    }
    if (rc != 0 && errno == EEXIST) {
      unlink(temp);
      return 1;
    }
  }
  if (rc != 0) {
    fail_errno(error, capacity, "cannot write", target);
    unlink(temp);
    return -1;
  }
  sync_folder(target);
  return 0;
}

// The file at `target` as it is now: its state, and its bytes in a
// malloc'd `*data` (NULL when it does not exist). 0, or -1 with `error`.
static int read_now(const char *target, size_t largest, file_state *state, uint8_t **data, size_t *size,
                    char *error, size_t capacity) {
  *data = NULL;
  *size = 0;
  // O_NONBLOCK: a FIFO named like a sidecar must not hang the write.
  int fd = open(target, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0) {
    if (errno != ENOENT) return fail_errno(error, capacity, "cannot read", target);
    state->exists = 0;
    return 0;
  }
  state->exists = 1;
  int rc = -1;
  if (fstat(fd, &state->info) != 0) {
    fail_errno(error, capacity, "cannot read", target);
  } else if (!S_ISREG(state->info.st_mode)) {
    fail(error, capacity, "cannot write %s: not a regular file", target);
  } else if ((uint64_t)state->info.st_size > largest) {
    fail(error, capacity, "not XMP: %s is larger than %zu MiB", target, largest >> 20);
  } else if ((*data = malloc((size_t)state->info.st_size + 1)) == NULL) {
    fail(error, capacity, "cannot read %s: out of memory", target);
  } else {
    ssize_t got = pk_io_pread_full(fd, *data, (size_t)state->info.st_size, 0);
    if (got != (ssize_t)state->info.st_size) {
      if (got < 0) fail_errno(error, capacity, "cannot read", target);
      else fail(error, capacity, "cannot read %s: it changed while it was read", target);
      free(*data);
      *data = NULL;
    } else {
      *size = (size_t)got;
      rc = 0;
    }
  }
  close(fd);
  return rc;
}

// A few milliseconds, more each time and never the same twice: two
// programs rewriting one file at once fall out of step.
static void pause_before_again(int attempt) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long milliseconds = attempt + (long)((unsigned long)now.tv_nsec / 1000 % (unsigned long)(4 * attempt + 1));
  struct timespec wait = {0, milliseconds * 1000000L};
  while (nanosleep(&wait, &wait) != 0 && errno == EINTR) {
  }
}

static int write_sidecar(const char *path, const pk_xmp_change *change, char *error, size_t capacity) {
  char target[PATH_MAX], temp[PATH_MAX];
  if (resolve(path, target, error, capacity) != 0) return -1;
  for (int attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) pause_before_again(attempt);
    file_state before;
    uint8_t *old;
    size_t old_size;
    if (read_now(target, largest_sidecar, &before, &old, &old_size, error, capacity) != 0) return -1;
    char *text = NULL;
    size_t length = 0;
    int rc = changed_sidecar(old, old_size, change, target, &text, &length, error, capacity);
    free(old);
    if (rc != 0) return -1;
    int fd = create_beside(target, temp, error, capacity);
    if (fd < 0) {
      free(text);
      return -1;
    }
    rc = pk_io_write_all(fd, text, length) != 0 ? fail_errno(error, capacity, "cannot write", target)
                                                : finish_file(fd, &before, target, error, capacity);
    free(text);
    if (close(fd) != 0 && rc == 0) rc = fail_errno(error, capacity, "cannot write", target);
    if (rc != 0) {
      unlink(temp);
      return -1;
    }
    rc = put_in_place(temp, target, &before, error, capacity);
    if (rc != 1) return rc;
  }
  return fail(error, capacity, "cannot write %s: another program keeps changing it", target);
}

// MARK: JPEG

// Where a JPEG's XMP is: its standard packet (the first APP1 named
// http://ns.adobe.com/xap/1.0/) read into malloc'd `*packet` (NULL when it
// has none), and the bytes a new XMP segment replaces, [*cut, *cut_end):
// the old one's, or an empty range after the APP0 and APP1 segments that
// open the file (JFIF and Exif, which must come first). Extended XMP
// (APP1s named http://ns.adobe.com/xmp/extension/) is left where it is,
// byte for byte: the standard packet keeps the GUID that names it.
static int find_jpeg_xmp(int fd, uint64_t size, const char *path, uint8_t **packet, size_t *packet_size, uint64_t *cut,
                         uint64_t *cut_end, char *error, size_t capacity) {
  static const char standard[] = "http://ns.adobe.com/xap/1.0/";  // and its NUL
  *packet = NULL;
  *packet_size = 0;
  *cut = *cut_end = 0;
  uint64_t at = 2;
  int opening = 1;  // still in the APP0 and APP1 segments after SOI
  for (int hop = 0; hop < 10000; hop++) {
    uint8_t m[4 + sizeof standard];
    if (at + 4 > size || pk_io_pread_full(fd, m, 4, (off_t)at) != 4 || m[0] != 0xFF) break;
    if (m[1] == 0xFF) {  // fill
      at++;
      continue;
    }
    if (m[1] == 0xDA || m[1] == 0xD9) {  // the image data, or its end: no more metadata
      if (opening) *cut = *cut_end = at;
      return 0;
    }
    if (m[1] == 0x01 || (m[1] >= 0xD0 && m[1] <= 0xD8)) {
      at += 2;
      continue;
    }
    size_t length = (size_t)m[2] << 8 | m[3];
    if (length < 2 || at + 2 + length > size) break;
    if (opening && m[1] != 0xE0 && m[1] != 0xE1) {
      opening = 0;
      *cut = *cut_end = at;
    }
    if (m[1] == 0xE1 && length - 2 > sizeof standard &&
        pk_io_pread_full(fd, m + 4, sizeof standard, (off_t)(at + 4)) == (ssize_t)sizeof standard &&
        memcmp(m + 4, standard, sizeof standard) == 0) {
      *packet_size = length - 2 - sizeof standard;
      if ((*packet = malloc(*packet_size + 1)) == NULL)
        return fail(error, capacity, "cannot read %s: out of memory", path);
      if (pk_io_pread_full(fd, *packet, *packet_size, (off_t)(at + 4 + sizeof standard)) != (ssize_t)*packet_size)
        break;
      *cut = at;
      *cut_end = at + 2 + length;
      return 0;
    }
    at += 2 + length;
  }
  free(*packet);
  *packet = NULL;
  return fail(error, capacity, "not a JPEG: %s ends or breaks before its image data", path);
}

// The JPEG's packet `old` (NULL: none) with the change made, as a whole
// APP1 segment in malloc'd `*out`: the packet wrapped and padded as
// exempi writes packets into files (2 KiB of padding, so that other
// programs can edit it in place), or without padding when that does not
// fit in a segment. 0, or -1 with `error`.
static int changed_segment(const uint8_t *old, size_t old_size, const pk_xmp_change *change, const char *path,
                           uint8_t **out, size_t *out_size, char *error, size_t capacity) {
  static const char standard[] = "http://ns.adobe.com/xap/1.0/";  // and its NUL
  // The XMP specification's limit for the standard packet.
  enum { largest_packet = 65502 };
  int rc = -1;
  XmpPtr xmp = xmp_new_empty();
  XmpStringPtr text = xmp_string_new();
  const char *refused = NULL;
  if (xmp == NULL || text == NULL) {
    fail(error, capacity, "cannot write into %s: out of memory", path);
  } else if (old != NULL && parse(xmp, old, old_size, path, error, capacity) != 0) {
    // error set
  } else if ((refused = apply(xmp, change)) != NULL) {
    fail(error, capacity, "cannot write into %s: exempi refused %s (error %d)", path, refused, xmp_get_error());
  } else if (!xmp_serialize(xmp, text, XMP_SERIAL_USECOMPACTFORMAT, 0) ||
             (xmp_string_len(text) > largest_packet &&
              !xmp_serialize(xmp, text, XMP_SERIAL_USECOMPACTFORMAT | XMP_SERIAL_OMITALLFORMATTING, 1))) {
    fail(error, capacity, "cannot write into %s: exempi could not serialize it (error %d)", path, xmp_get_error());
  } else if (xmp_string_len(text) > largest_packet) {
    fail(error, capacity, "cannot write into %s: its XMP is too large for a JPEG segment", path);
  } else {
    size_t length = xmp_string_len(text), segment = 2 + sizeof standard + length;
    if ((*out = malloc(2 + segment)) == NULL) {
      fail(error, capacity, "cannot write into %s: out of memory", path);
    } else {
      (*out)[0] = 0xFF;
      (*out)[1] = 0xE1;
      (*out)[2] = (uint8_t)(segment >> 8);
      (*out)[3] = (uint8_t)segment;
      memcpy(*out + 4, standard, sizeof standard);
      memcpy(*out + 4 + sizeof standard, xmp_string_cstr(text), length);
      *out_size = 2 + segment;
      rc = 0;
    }
  }
  if (text != NULL) xmp_string_free(text);
  if (xmp != NULL) xmp_free(xmp);
  return rc;
}

// Copies [at, at + length) of `from` to the end of `to` (the kernel's copy
// where it can: on btrfs and XFS the blocks are shared, not copied).
static int copy_range(int from, int to, uint64_t at, uint64_t length) {
  off_t offset = (off_t)at;
  uint64_t left = length;
  while (left > 0) {
    ssize_t n = copy_file_range(from, &offset, to, NULL, (size_t)left, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    left -= (uint64_t)n;
  }
  if (left == 0) return 0;
  static const size_t chunk = 1 << 20;
  uint8_t *buffer = malloc(chunk);
  if (buffer == NULL) return -1;
  while (left > 0) {
    ssize_t n = pk_io_pread_full(from, buffer, left < chunk ? (size_t)left : chunk, offset);
    if (n <= 0 || pk_io_write_all(to, buffer, (size_t)n) != 0) break;
    offset += n;
    left -= (uint64_t)n;
  }
  free(buffer);
  return left == 0 ? 0 : -1;
}

// Writes the JPEG with its XMP segment replaced into the new file `to`.
static int write_jpeg(int from, int to, const struct stat *info, const pk_xmp_change *change, const char *target,
                      char *error, size_t capacity) {
  uint8_t *packet, *segment = NULL;
  size_t packet_size, segment_size = 0;
  uint64_t cut, cut_end, size = (uint64_t)info->st_size;
  if (find_jpeg_xmp(from, size, target, &packet, &packet_size, &cut, &cut_end, error, capacity) != 0) return -1;
  int rc = changed_segment(packet, packet_size, change, target, &segment, &segment_size, error, capacity);
  free(packet);
  if (rc == 0 && (copy_range(from, to, 0, cut) != 0 || pk_io_write_all(to, segment, segment_size) != 0 ||
                  copy_range(from, to, cut_end, size - cut_end) != 0))
    rc = fail_errno(error, capacity, "cannot write into", target);
  free(segment);
  return rc;
}

static int write_embedded(const char *path, const pk_xmp_change *change, char *error, size_t capacity) {
  char target[PATH_MAX], temp[PATH_MAX];
  if (resolve(path, target, error, capacity) != 0) return -1;
  for (int attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) pause_before_again(attempt);
    file_state before = {0};
    // O_NONBLOCK: a FIFO named like a photo must not hang the write.
    int from = open(target, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
    if (from < 0) return fail_errno(error, capacity, "cannot write into", target);
    uint8_t magic[3];
    int rc = 0;
    before.exists = 1;
    if (fstat(from, &before.info) != 0) rc = fail_errno(error, capacity, "cannot read", target);
    else if (!S_ISREG(before.info.st_mode))
      rc = fail(error, capacity, "cannot write into %s: not a regular file", target);
    else if (pk_io_pread_full(from, magic, 3, 0) != 3 || memcmp(magic, "\xFF\xD8\xFF", 3) != 0)
      rc = fail(error, capacity, "cannot write into %s: only a JPEG takes its rating inside; others take a sidecar",
                target);
    // The rename would replace a photo its owner made read-only, and part
    // hard links (each name would keep a photo of its own): a sidecar
    // takes the rating instead.
    else if (access(target, W_OK) != 0)
      rc = fail(error, capacity, "cannot write into %s: it is read-only", target);
    else if (before.info.st_nlink > 1)
      rc = fail(error, capacity, "cannot write into %s: it has other hard links", target);
    int to = rc == 0 ? create_beside(target, temp, error, capacity) : -1;
    if (rc == 0 && to < 0) rc = -1;
    if (rc == 0) rc = write_jpeg(from, to, &before.info, change, target, error, capacity);
    // The photo keeps its file time: a photo dated by it (no EXIF) stays
    // on its day, and the rating is no edit of the picture.
    if (rc == 0) {
      struct timespec times[2] = {before.info.st_atim, before.info.st_mtim};
      if (futimens(to, times) != 0) rc = fail_errno(error, capacity, "cannot write into", target);
    }
    if (rc == 0) rc = finish_file(to, &before, target, error, capacity);
    close(from);
    if (to >= 0 && close(to) != 0 && rc == 0) rc = fail_errno(error, capacity, "cannot write into", target);
    if (rc != 0) {
      if (to >= 0) unlink(temp);
      return -1;
    }
    rc = put_in_place(temp, target, &before, error, capacity);
    if (rc != 1) return rc;
  }
  return fail(error, capacity, "cannot write into %s: another program keeps changing it", target);
}

// MARK: Entry points

static int write_in_turn(int (*body)(const char *, const pk_xmp_change *, char *, size_t), const char *path,
                         const pk_xmp_change *change, char *error, size_t capacity) {
  if (capacity > 0) error[0] = 0;
  if (path == NULL || !valid_change(change)) return fail(error, capacity, "cannot write: no such rating or label");
  if (!ready(error, capacity)) return -1;
  pthread_mutex_lock(&writing);
  int rc = body(path, change, error, capacity);
  pthread_mutex_unlock(&writing);
  return rc;
}

int pk_xmp_write_sidecar(const char *path, const pk_xmp_change *change, char *error, size_t capacity) {
  return write_in_turn(write_sidecar, path, change, error, capacity);
}

int pk_xmp_write_embedded(const char *path, const pk_xmp_change *change, char *error, size_t capacity) {
  return write_in_turn(write_embedded, path, change, error, capacity);
}
