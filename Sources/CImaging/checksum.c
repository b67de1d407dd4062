// MD5 for the freedesktop thumbnail names, from glib (already linked for
// libchafa).
#include <glib.h>
#include <string.h>

#include "CImaging.h"

void pk_md5_hex(const uint8_t *data, size_t size, char out[33]) {
  gchar *hex = g_compute_checksum_for_data(G_CHECKSUM_MD5, data, size);
  memcpy(out, hex, 32);
  out[32] = 0;
  g_free(hex);
}
