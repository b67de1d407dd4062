// Rating and colour label from an XMP packet (xmp_culling.h). Like the date
// reader beside it, it only looks at the bytes it is given, with a few
// memmem scans, so a hostile packet costs bounded work and no allocation.
#define _GNU_SOURCE  // memmem
#include "xmp_culling.h"

#include <string.h>

#include "xmp_property.h"

// A namespace by its URI and the prefix the programs that write it use.
// The packet's own declaration wins: old Adobe packets call xmp "xap".
typedef struct {
  const char *uri;
  const char *usual;
  char declared[40];  // "" until looked up, or when the packet declares none
  int looked_up;
} xmp_namespace;

static int is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static int is_name_byte(uint8_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.';
}

// The prefix of the first xmlns:PREFIX="uri" in the packet, found from the
// URI backwards (the URI is the rarer string).
static void look_up(const uint8_t *data, size_t size, xmp_namespace *ns) {
  if (ns->looked_up) return;
  ns->looked_up = 1;
  size_t length = strlen(ns->uri);
  for (size_t from = 0; from + length < size;) {
    const uint8_t *hit = memmem(data + from, size - from, ns->uri, length);
    if (hit == NULL) return;
    size_t at = (size_t)(hit - data), end = at + length;
    from = at + 1;
    if (at == 0 || (data[at - 1] != '"' && data[at - 1] != '\'') || end >= size || data[end] != data[at - 1]) continue;
    size_t i = at - 1;
    while (i > 0 && is_space(data[i - 1])) i--;
    if (i == 0 || data[i - 1] != '=') continue;
    i--;
    while (i > 0 && is_space(data[i - 1])) i--;
    size_t prefix_end = i;
    while (i > 0 && prefix_end - i < sizeof ns->declared - 1 && is_name_byte(data[i - 1])) i--;
    if (i == prefix_end || i < 6 || memcmp(data + i - 6, "xmlns:", 6) != 0) continue;
    memcpy(ns->declared, data + i, prefix_end - i);
    ns->declared[prefix_end - i] = 0;
    return;
  }
}

// "prefix:local" into `out`; 0 when it does not fit.
static int qualified(char *out, size_t capacity, const char *prefix, const char *local) {
  size_t p = strlen(prefix), l = strlen(local);
  if (p == 0 || p + 1 + l + 1 > capacity) return 0;
  memcpy(out, prefix, p);
  out[p] = ':';
  memcpy(out + p + 1, local, l + 1);
  return 1;
}

// A simple property's value under the declared prefix, else the usual one.
static int value(const uint8_t *data, size_t size, xmp_namespace *ns, const char *local, char *out, size_t capacity) {
  char name[64];
  look_up(data, size, ns);
  if (ns->declared[0] && qualified(name, sizeof name, ns->declared, local) &&
      pk_xmp_property(data, size, name, out, capacity))
    return 1;
  if (strcmp(ns->declared, ns->usual) == 0) return 0;
  return qualified(name, sizeof name, ns->usual, local) && pk_xmp_property(data, size, name, out, capacity);
}

// The leading integer of `text` ("3", "-1", "3.0"), with at most 6 digits;
// 0 when it has none.
static int leading_integer(const char *text, int *out) {
  int sign = 1, n = 0, digits = 0;
  if (*text == '-' || *text == '+') sign = *text++ == '-' ? -1 : 1;
  for (; *text >= '0' && *text <= '9' && digits < 6; text++, digits++) n = n * 10 + (*text - '0');
  if (digits == 0 || (*text >= '0' && *text <= '9')) return 0;
  *out = sign * n;
  return 1;
}

static int integer_value(const uint8_t *data, size_t size, xmp_namespace *ns, const char *local, int *out) {
  char text[16];
  return value(data, size, ns, local, text, sizeof text) && leading_integer(text, out);
}

// Lightroom's label names; another name (a custom label set's) is none,
// and so is one cut short by `capacity`.
static int32_t label_named(const char *text, size_t capacity) {
  static const char *const names[] = {"red", "yellow", "green", "blue", "purple"};
  size_t length = strlen(text);
  if (length + 1 >= capacity) return 0;
  while (length > 0 && text[length - 1] == ' ') length--;
  for (int32_t n = 0; n < 5; n++) {
    if (strlen(names[n]) != length) continue;
    size_t i = 0;
    while (i < length && (text[i] | 0x20) == names[n][i]) i++;
    if (i == length) return n + 1;
  }
  return 0;
}

// The first item of the array property `name` (an element holding an
// rdf:Seq or rdf:Bag of rdf:li): its leading integer, or -1 when the
// element is missing, empty or its first item is no number.
static int first_item(const uint8_t *data, size_t size, const char *name) {
  size_t length = strlen(name);
  for (size_t from = 1; from + length < size;) {
    const uint8_t *hit = memmem(data + from, size - from, name, length);
    if (hit == NULL) return -1;
    size_t at = (size_t)(hit - data), i = at + length;
    from = at + 1;
    if (data[at - 1] != '<' || i >= size || (data[i] != '>' && !is_space(data[i]))) continue;
    // Each tag inside it in turn, up to its first rdf:li's text or its end.
    const uint8_t *tag = memchr(data + i, '>', size - i);
    if (tag == NULL || tag[-1] == '/') return -1;
    for (i = (size_t)(tag - data) + 1; i < size;) {
      const uint8_t *open = memchr(data + i, '<', size - i);
      if (open == NULL) return -1;
      i = (size_t)(open - data) + 1;
      if (i < size && data[i] == '/') {
        // The end of a container (rdf:Seq), or of the property itself.
        if (size - i - 1 >= length && memcmp(data + i + 1, name, length) == 0) return -1;
        continue;
      }
      size_t name_end = i;
      while (name_end < size && (is_name_byte(data[name_end]) || data[name_end] == ':')) name_end++;
      if (name_end >= size || name_end - i < 2 || memcmp(data + name_end - 2, "li", 2) != 0 ||
          (name_end - i > 2 && data[name_end - 3] != ':'))
        continue;
      const uint8_t *close = memchr(data + name_end, '>', size - name_end);
      if (close == NULL || close[-1] == '/') return -1;
      // The item's text up to the next tag, which must be there.
      size_t text = (size_t)(close - data) + 1, text_end = text;
      while (text_end < size && data[text_end] != '<' && text_end - text < 15) text_end++;
      if (text_end >= size || data[text_end] != '<') return -1;
      char item[16];
      size_t n = 0;
      while (text < text_end && is_space(data[text])) text++;
      while (text < text_end && n + 1 < sizeof item) item[n++] = (char)data[text++];
      item[n] = 0;
      int number;
      return leading_integer(item, &number) ? number : -1;
    }
    return -1;
  }
  return -1;
}

static int32_t darktable_label(const uint8_t *data, size_t size, xmp_namespace *ns) {
  char name[64];
  look_up(data, size, ns);
  int first = -1;
  if (ns->declared[0] && qualified(name, sizeof name, ns->declared, "colorlabels"))
    first = first_item(data, size, name);
  if (first < 0 && strcmp(ns->declared, ns->usual) != 0 && qualified(name, sizeof name, ns->usual, "colorlabels"))
    first = first_item(data, size, name);
  return first >= 0 && first <= 4 ? first + 1 : 0;
}

int pk_xmp_culling_read(const uint8_t *data, size_t size, pk_xmp_culling *out) {
  memset(out, 0, sizeof *out);
  // Most packets say nothing of either: two scans tell ("abel" is in
  // Label, colorlabels, ColorLabel and PickLabel).
  if (data == NULL || (memmem(data, size, "Rating", 6) == NULL && memmem(data, size, "abel", 4) == NULL)) return 0;
  xmp_namespace xmp = {"http://ns.adobe.com/xap/1.0/", "xmp", {0}, 0};
  xmp_namespace darktable = {"http://darktable.sf.net/", "darktable", {0}, 0};
  xmp_namespace digikam = {"http://www.digikam.org/ns/1.0/", "digiKam", {0}, 0};
  int number;
  if (integer_value(data, size, &xmp, "Rating", &number) && number >= -1 && number <= 5) {
    out->has_rating = 1;
    out->rating = number;
  } else if (integer_value(data, size, &digikam, "PickLabel", &number) && number == 1) {
    out->has_rating = 1;
    out->rating = -1;
  }
  char text[32];
  if (value(data, size, &xmp, "Label", text, sizeof text)) out->label = label_named(text, sizeof text);
  if (out->label == 0) out->label = darktable_label(data, size, &darktable);
  if (out->label == 0 && integer_value(data, size, &digikam, "ColorLabel", &number)) {
    static const int32_t from_digikam[10] = {0, 1, 0, 2, 3, 4, 5, 0, 0, 0};
    out->label = number >= 0 && number <= 9 ? from_digikam[number] : 0;
  }
  return out->has_rating || out->label != 0;
}
