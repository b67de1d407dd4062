// The one scan of XMP text the date and culling readers share
// (embedded_dates.c, xmp_culling.c). Private to CImaging.
#ifndef CIMAGING_XMP_PROPERTY_H
#define CIMAGING_XMP_PROPERTY_H

#include <stddef.h>
#include <stdint.h>

// The value of property `name` ("xmp:Rating", prefix and all) at its first
// use as an attribute or an element that has one, copied as printable
// ASCII up to `capacity` - 1 bytes (`capacity` must not be 0); 0 when it
// has none. The name must follow '<' or a space and be followed by '=' or
// '>', so that neither "xmp:RatingPercent" nor "MicrosoftPhoto:Rating"
// matches "xmp:Rating". One linear scan of [data, data + size).
int pk_xmp_property(const uint8_t *data, size_t size, const char *name, char *out, size_t capacity);

#endif
