// The freedesktop thumbnail names: MD5 of a file URI, both from glib
// (already linked for libchafa), so names match what GLib programs write.
#include <glib.h>
#include <string.h>

#include "CImaging.h"

void pk_md5_hex(const uint8_t *data, size_t size, char out[33]) {
  gchar *hex = g_compute_checksum_for_data(G_CHECKSUM_MD5, data, size);
  memcpy(out, hex, 32);
  out[32] = 0;
  g_free(hex);
}

int pk_file_uri(const char *absolute_path, char *out, size_t capacity) {
  gchar *uri = g_filename_to_uri(absolute_path, NULL, NULL);
  if (uri == NULL) return -1;
  size_t length = strlen(uri);
  if (length + 1 > capacity) {
    g_free(uri);
    return -1;
  }
  memcpy(out, uri, length + 1);
  g_free(uri);
  return (int)length;
}
