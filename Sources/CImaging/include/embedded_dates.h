#ifndef PICKER_EMBEDDED_DATES_H
#define PICKER_EMBEDDED_DATES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The date an XMP packet gives for when the photo was taken: the first of
// exif:DateTimeOriginal, photoshop:DateCreated and xmp:CreateDate present,
// as an attribute (prop="…") or an element (<prop>…</prop>), copied as
// written ("2023-06-14T10:15:00.123+02:00") into `out`, printable ASCII
// only, cut at `capacity` - 1. Returns 1 when one was found. Reads only
// [data, data + size): an XMP sidecar whole, or a JPEG's XMP segment.
int pk_xmp_date(const uint8_t *data, size_t size, char *out, size_t capacity);

// IPTC-IIM records (a Photoshop APP13's 0x0404 resource): DateCreated
// (2:55, "CCYYMMDD") and TimeCreated (2:60, "HHMMSS±HHMM") into `date`
// and `time` ("" when absent). Returns 1 when the date was found.
int pk_iptc_date(const uint8_t *data, size_t size, char *date, size_t date_capacity, char *time,
                 size_t time_capacity);

#ifdef __cplusplus
}
#endif

#endif
