// Embedded colour profiles turned into sRGB with Little CMS, so an Adobe RGB
// or ProPhoto photo does not look desaturated. Photos without a profile, or
// with an sRGB one, are left alone and cost nothing.
#include <lcms2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "decode_internal.h"

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

// Transforms are costly to build (a few ms) and photos of one camera share
// their profile: the last few are kept, keyed by the profile's bytes. Built
// with cmsFLAGS_NOCACHE, one transform is safe on every decoding thread at
// once; an evicted one is deleted when its last user lets it go.
enum { cache_size = 8 };
typedef struct {
  uint32_t checksum;
  size_t length;
  cmsHTRANSFORM transform;  // NULL: the profile needs nothing (or is unusable)
  int users;
  int evicted;
  uint64_t stamp;
} cached_transform;
static cached_transform *cache[cache_size];
static uint64_t cache_clock = 0;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static void drop(cached_transform *entry) {
  if (entry->transform != NULL) cmsDeleteTransform(entry->transform);
  free(entry);
}

// An sRGB profile by its description (cameras and editors write a handful
// of known names); converting it to sRGB would change nothing.
static int is_srgb(cmsHPROFILE profile) {
  char description[128] = {0};
  cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", description, sizeof description);
  return strstr(description, "sRGB") != NULL || strstr(description, "IEC61966-2") != NULL;
}

static cmsHTRANSFORM make_transform(const uint8_t *icc, size_t size) {
  cmsHPROFILE source = cmsOpenProfileFromMem(icc, (cmsUInt32Number)size);
  if (source == NULL) return NULL;
  cmsHTRANSFORM transform = NULL;
  if (cmsGetColorSpace(source) == cmsSigRgbData && !is_srgb(source)) {
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    if (srgb != NULL) {
      transform = cmsCreateTransform(source, TYPE_RGBA_8, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL,
        cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA);
      cmsCloseProfile(srgb);
    }
  }
  cmsCloseProfile(source);
  return transform;
}

static cached_transform *acquire(const uint8_t *icc, size_t size) {
  const uint32_t checksum = (uint32_t)crc32(0L, icc, (uInt)size);
  pthread_mutex_lock(&cache_lock);
  for (int i = 0; i < cache_size; i++) {
    cached_transform *entry = cache[i];
    if (entry != NULL && entry->checksum == checksum && entry->length == size) {
      entry->stamp = ++cache_clock;
      entry->users++;
      pthread_mutex_unlock(&cache_lock);
      return entry;
    }
  }
  pthread_mutex_unlock(&cache_lock);
  cached_transform *made = calloc(1, sizeof *made);
  if (made == NULL) return NULL;
  *made = (cached_transform){.checksum = checksum, .length = size, .transform = make_transform(icc, size), .users = 1};
  pthread_mutex_lock(&cache_lock);
  int slot = 0;
  for (int i = 0; i < cache_size; i++) {
    if (cache[i] == NULL) {
      slot = i;
      break;
    }
    if (cache[i]->stamp < cache[slot]->stamp) slot = i;
  }
  cached_transform *old = cache[slot];
  if (old != NULL) {
    old->evicted = 1;
    if (old->users == 0) drop(old);
  }
  made->stamp = ++cache_clock;
  cache[slot] = made;
  pthread_mutex_unlock(&cache_lock);
  return made;
}

static void release(cached_transform *entry) {
  pthread_mutex_lock(&cache_lock);
  entry->users--;
  if (entry->evicted && entry->users == 0) drop(entry);
  pthread_mutex_unlock(&cache_lock);
}

void pk_apply_icc(pk_image *image, const uint8_t *icc, size_t size) {
  if (icc == NULL || size < 132 || image->pixels == NULL) return;
  cached_transform *entry = acquire(icc, size);
  if (entry == NULL) return;
  if (entry->transform != NULL) {
    for (int32_t y = 0; y < image->height; y++) {
      uint8_t *row = image->pixels + (size_t)y * image->width * 4;
      cmsDoTransform(entry->transform, row, row, (cmsUInt32Number)image->width);
    }
  }
  release(entry);
}

int pk_jpeg_icc(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
  *out = NULL;
  *out_size = 0;
  // APP2 "ICC_PROFILE\0", sequence number, count, then a piece of the
  // profile; up to 255 pieces, in any order.
  const uint8_t *pieces[256] = {0};
  size_t lengths[256] = {0};
  int count = 0;
  size_t pos = 2;
  while (pos + 4 <= size && data[pos] == 0xFF) {
    const uint8_t marker = data[pos + 1];
    if (marker == 0xFF) {
      pos++;
      continue;
    }
    if (marker == 0xDA || marker == 0xD9) break;
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {
      pos += 2;
      continue;
    }
    const size_t length = (size_t)data[pos + 2] << 8 | data[pos + 3];
    if (length < 2 || pos + 2 + length > size) break;
    const uint8_t *body = data + pos + 4;
    if (marker == 0xE2 && length >= 16 && memcmp(body, "ICC_PROFILE\0", 12) == 0) {
      const int sequence = body[12];
      count = body[13];
      if (sequence >= 1 && sequence <= 255) {
        pieces[sequence] = body + 14;
        lengths[sequence] = length - 16;
      }
    }
    pos += 2 + length;
  }
  if (count == 0) return 0;
  size_t total = 0;
  for (int i = 1; i <= count; i++) {
    if (pieces[i] == NULL) return 0;  // a piece is missing: no profile
    total += lengths[i];
  }
  uint8_t *profile = malloc(total);
  if (profile == NULL) return 0;
  size_t at = 0;
  for (int i = 1; i <= count; i++) {
    memcpy(profile + at, pieces[i], lengths[i]);
    at += lengths[i];
  }
  *out = profile;
  *out_size = total;
  return 1;
}

int pk_png_icc(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
  *out = NULL;
  *out_size = 0;
  for (size_t at = 8; at + 12 <= size;) {
    const uint32_t length = be32(data + at);
    if (length > size - at - 12) break;
    const uint8_t *type = data + at + 4;
    if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0) break;
    if (memcmp(type, "iCCP", 4) == 0) {
      // A name (1-79 bytes), NUL, the method (0: zlib), the compressed profile.
      const uint8_t *body = data + at + 8;
      const uint8_t *nul = memchr(body, 0, length < 80 ? length : 80);
      if (nul == NULL || (size_t)(nul - body) + 2 > length || nul[1] != 0) return 0;
      const uint8_t *compressed = nul + 2;
      const size_t compressed_size = length - (size_t)(compressed - body);
      uLongf capacity = 4 * 1024 * 1024;  // profiles are kilobytes; more is not one
      uint8_t *profile = malloc(capacity);
      if (profile == NULL) return 0;
      if (uncompress(profile, &capacity, compressed, (uLong)compressed_size) != Z_OK) {
        free(profile);
        return 0;
      }
      *out = profile;
      *out_size = capacity;
      return 1;
    }
    at += 12 + (size_t)length;
  }
  return 0;
}
