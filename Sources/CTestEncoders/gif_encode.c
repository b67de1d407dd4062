// GIF encoding, for the tests' images only (not in the shipped picker).
#include <gif_lib.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "CTestEncoders.h"

typedef struct {
  uint8_t *data;
  size_t size, capacity;
} memory_writer;

static int write_memory(GifFileType *gif, const GifByteType *bytes, int count) {
  memory_writer *writer = gif->UserData;
  if (writer->size + (size_t)count > writer->capacity) {
    size_t capacity = (writer->capacity + (size_t)count) * 2;
    uint8_t *grown = realloc(writer->data, capacity);
    if (grown == NULL) return 0;
    writer->data = grown;
    writer->capacity = capacity;
  }
  memcpy(writer->data + writer->size, bytes, (size_t)count);
  writer->size += (size_t)count;
  return count;
}

int pk_encode_gif(const pk_image *frames, int count, uint8_t **out, size_t *out_size) {
  if (count < 1) return -1;
  const int width = frames[0].width, height = frames[0].height;
  // A 6x6x6 colour cube in 216 of 256 entries.
  ColorMapObject *map = GifMakeMapObject(256, NULL);
  if (map == NULL) return -1;
  for (int i = 0; i < 256; i++) {
    int cube = i < 216 ? i : 215;
    map->Colors[i].Red = (GifByteType)(cube / 36 * 51);
    map->Colors[i].Green = (GifByteType)(cube / 6 % 6 * 51);
    map->Colors[i].Blue = (GifByteType)(cube % 6 * 51);
  }
  memory_writer writer = {0};
  int error = 0;
  GifFileType *gif = EGifOpen(&writer, write_memory, &error);
  GifPixelType *line = malloc((size_t)width);
  int ok = gif != NULL && line != NULL;
  if (ok) {
    EGifSetGifVersion(gif, true);
    ok = EGifPutScreenDesc(gif, width, height, 8, 0, map) == GIF_OK;
  }
  for (int f = 0; ok && f < count; f++) {
    ok = EGifPutImageDesc(gif, 0, 0, width, height, false, NULL) == GIF_OK;
    for (int y = 0; ok && y < height; y++) {
      for (int x = 0; x < width; x++) {
        const uint8_t *p = frames[f].pixels + ((size_t)y * width + x) * 4;
        line[x] = (GifPixelType)((p[0] + 25) / 51 * 36 + (p[1] + 25) / 51 * 6 + (p[2] + 25) / 51);
      }
      ok = EGifPutLine(gif, line, width) == GIF_OK;
    }
  }
  if (gif != NULL && EGifCloseFile(gif, &error) != GIF_OK) ok = 0;
  GifFreeMapObject(map);
  free(line);
  if (!ok) {
    free(writer.data);
    return -1;
  }
  *out = writer.data;
  *out_size = writer.size;
  return 0;
}
