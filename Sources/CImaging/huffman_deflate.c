// Huffman-only deflate for the cache's PNG thumbnails. Camera noise leaves
// LZ77 matching almost nothing to find in a thumbnail (1% against zlib's
// level 1), and zlib with Z_HUFFMAN_ONLY still runs its general machinery:
// every byte tallied into a symbol buffer, then coded in a second pass.
// This is one histogram and one pass of table lookups a block.
#include "CImaging.h"

#include <string.h>
#include <zlib.h>

enum {
  // Input bytes a block at most: each block's code follows its own part of
  // the picture.
  block_bytes = 1 << 15,
  // The literals and the end of the block (no lengths: there are no
  // matches); the distance alphabet is one unused code.
  literal_symbols = 257,
  end_of_block = 256,
  max_literal_bits = 15,
  length_symbols = 19,
  max_length_bits = 7,
};

// A stored block's length is 16 bits, and so are the weights by_weight
// sorts: a block's byte count, and one for its end.
_Static_assert(block_bytes < 65535, "a block's bytes must fit in 16 bits");

typedef struct {
  uint8_t *at;
  uint64_t bits;
  int count;
} bit_writer;

// The low 32 of `bits`, first bits first (deflate's order).
static inline uint8_t *store32(uint8_t *at, uint64_t bits) {
  for (int i = 0; i < 4; i++) at[i] = (uint8_t)(bits >> (8 * i));
  return at + 4;
}

static void put_bits(bit_writer *writer, uint32_t value, int length) {
  writer->bits |= (uint64_t)value << writer->count;
  writer->count += length;
  if (writer->count >= 32) {
    writer->at = store32(writer->at, writer->bits);
    writer->bits >>= 32;
    writer->count -= 32;
  }
}

// The codes of `size` bytes: put_bits two codes at a time, in locals (the
// byte stores could otherwise alias the writer's fields, reloaded after
// each). Fewer than 32 bits wait, and two codes are at most 30.
static void put_codes(bit_writer *writer, const uint8_t *data, size_t size, const uint16_t *codes,
  const uint8_t *lengths) {
  uint8_t *at = writer->at;
  uint64_t bits = writer->bits;
  int count = writer->count;
  size_t i = 0;
  for (; i + 2 <= size; i += 2) {
    bits |= (uint64_t)codes[data[i]] << count;
    count += lengths[data[i]];
    bits |= (uint64_t)codes[data[i + 1]] << count;
    count += lengths[data[i + 1]];
    if (count >= 32) {
      at = store32(at, bits);
      bits >>= 32;
      count -= 32;
    }
  }
  writer->at = at;
  writer->bits = bits;
  writer->count = count;
  if (i < size) put_bits(writer, codes[data[i]], lengths[data[i]]);
}

// Out to the next whole byte (stored blocks and the stream's end).
static void align_to_byte(bit_writer *writer) {
  while (writer->count > 0) {
    *writer->at++ = (uint8_t)writer->bits;
    writer->bits >>= 8;
    writer->count = writer->count > 8 ? writer->count - 8 : 0;
  }
  writer->bits = 0;
}

// The symbols of nonzero weight, lightest first (ties in symbol order):
// two passes of a byte's radix sort, as weights stay below 65536 (a
// block's bytes at most). Returns how many.
static int by_weight(const uint32_t *weights, int count, int *symbols) {
  int other[literal_symbols];
  int n = 0;
  for (int s = 0; s < count; s++)
    if (weights[s] != 0) other[n++] = s;
  int *from = other, *to = symbols;
  for (int shift = 0; shift < 16; shift += 8) {
    int start[257] = {0};
    for (int i = 0; i < n; i++) start[((weights[from[i]] >> shift) & 255) + 1]++;
    for (int b = 1; b <= 256; b++) start[b] += start[b - 1];
    for (int i = 0; i < n; i++) to[start[(weights[from[i]] >> shift) & 255]++] = from[i];
    int *swap = from;
    from = to;
    to = swap;
  }
  // Two passes: the result is back where it started.
  memcpy(symbols, other, sizeof(int) * (size_t)n);
  return n;
}

// Huffman code lengths for `count` symbols (frequency 0: no code), none
// longer than `limit`. At least two symbols get one: zlib refuses a code
// of one symbol for the code lengths. Too long a code is cured by halving
// the frequencies (never to zero) until it fits; at worst all are equal,
// and then no code is longer than log2(count).
static void code_lengths(const uint32_t *frequencies, int count, int limit, uint8_t *lengths) {
  uint32_t weights[literal_symbols];
  int used = 0;
  for (int s = 0; s < count; s++) {
    weights[s] = frequencies[s];
    lengths[s] = 0;
    if (weights[s] != 0) used++;
  }
  for (int s = 0; s < count && used < 2; s++)
    if (weights[s] == 0) {
      weights[s] = 1;
      used++;
    }
  int symbols[literal_symbols];
  for (;;) {
    const int n = by_weight(weights, count, symbols);
    // Two queues: the sorted leaves, and the joined nodes (made in order
    // of weight, so sorted too).
    uint32_t node_weight[2 * literal_symbols];
    int parent[2 * literal_symbols];
    for (int i = 0; i < n; i++) node_weight[i] = weights[symbols[i]];
    int leaf = 0, joined = n;
    for (int made = n; made < 2 * n - 1; made++) {
      int pick[2];
      for (int k = 0; k < 2; k++)
        pick[k] = leaf < n && (joined >= made || node_weight[leaf] <= node_weight[joined]) ? leaf++ : joined++;
      node_weight[made] = node_weight[pick[0]] + node_weight[pick[1]];
      parent[pick[0]] = parent[pick[1]] = made;
    }
    int depth[2 * literal_symbols];
    depth[2 * n - 2] = 0;
    int longest = 0;
    for (int i = 2 * n - 3; i >= 0; i--) {
      depth[i] = depth[parent[i]] + 1;
      if (i < n && depth[i] > longest) longest = depth[i];
    }
    if (longest <= limit) {
      for (int i = 0; i < n; i++) lengths[symbols[i]] = (uint8_t)depth[i];
      return;
    }
    for (int s = 0; s < count; s++)
      if (weights[s] != 0) weights[s] = (weights[s] >> 1) | 1;
  }
}

// The low `length` bits of `code` in reverse order: all 16 bits swapped
// in halves, bytes, nibbles, pairs and single bits, then shifted down.
static uint32_t reversed(uint32_t code, int length) {
  code = ((code >> 1) & 0x5555) | ((code & 0x5555) << 1);
  code = ((code >> 2) & 0x3333) | ((code & 0x3333) << 2);
  code = ((code >> 4) & 0x0F0F) | ((code & 0x0F0F) << 4);
  code = ((code >> 8) & 0x00FF) | ((code & 0x00FF) << 8);
  return code >> (16 - length);
}

// The canonical codes of RFC 1951 3.2.2, bits reversed: deflate sends a
// code's first bit first, and the writer fills from the low bit.
static void canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
  int per_length[max_literal_bits + 1] = {0};
  for (int s = 0; s < count; s++)
    if (lengths[s]) per_length[lengths[s]]++;
  uint32_t next[max_literal_bits + 1] = {0};
  uint32_t code = 0;
  for (int bits = 1; bits <= max_literal_bits; bits++) {
    code = (code + (uint32_t)per_length[bits - 1]) << 1;
    next[bits] = code;
  }
  for (int s = 0; s < count; s++)
    codes[s] = lengths[s] ? (uint16_t)reversed(next[lengths[s]]++, lengths[s]) : 0;
}

// The code lengths of a block's two alphabets, run-length coded with the
// symbols 16 (repeat the last 3-6 times), 17 (3-10 zeros) and 18 (11-138
// zeros).
typedef struct {
  uint8_t symbol[literal_symbols + 1];
  uint8_t extra[literal_symbols + 1];
  int count;
} length_runs;

static void add_run(length_runs *runs, int symbol, int extra) {
  runs->symbol[runs->count] = (uint8_t)symbol;
  runs->extra[runs->count++] = (uint8_t)extra;
}

static void run_length_code(const uint8_t *lengths, int count, length_runs *runs) {
  runs->count = 0;
  for (int i = 0; i < count;) {
    const uint8_t length = lengths[i];
    int run = 1;
    while (i + run < count && lengths[i + run] == length) run++;
    i += run;
    if (length == 0) {
      for (; run >= 11; run -= run < 138 ? run : 138) add_run(runs, 18, (run < 138 ? run : 138) - 11);
      if (run >= 3) {
        add_run(runs, 17, run - 3);
        run = 0;
      }
    } else {
      add_run(runs, length, 0);
      run--;
      for (; run >= 3; run -= run < 6 ? run : 6) add_run(runs, 16, (run < 6 ? run : 6) - 3);
    }
    for (; run > 0; run--) add_run(runs, length, 0);
  }
}

static const uint8_t extra_bits[length_symbols] = {[16] = 2, [17] = 3, [18] = 7};
// The order RFC 1951 sends the code lengths' code lengths in.
static const uint8_t length_order[length_symbols] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

static void stored_block(bit_writer *writer, const uint8_t *data, size_t size, int last) {
  put_bits(writer, (uint32_t)last, 3);
  align_to_byte(writer);
  const uint8_t header[4] = {(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)~size, (uint8_t)(~size >> 8)};
  memcpy(writer->at, header, 4);
  memcpy(writer->at + 4, data, size);
  writer->at += 4 + size;
}

// One block: dynamic Huffman codes, or stored when those would not save.
static void block(bit_writer *writer, const uint8_t *data, size_t size, int last) {
  uint32_t frequencies[literal_symbols] = {0};
  // Four tables: a run of one byte (the Sub filter's zeros) would
  // otherwise wait on each increment before the next.
  uint32_t counts[4][256] = {{0}};
  size_t i = 0;
  for (; i + 4 <= size; i += 4) {
    counts[0][data[i]]++;
    counts[1][data[i + 1]]++;
    counts[2][data[i + 2]]++;
    counts[3][data[i + 3]]++;
  }
  for (; i < size; i++) counts[0][data[i]]++;
  for (int b = 0; b < 256; b++) frequencies[b] = counts[0][b] + counts[1][b] + counts[2][b] + counts[3][b];
  frequencies[end_of_block] = 1;
  // The alphabets' lengths as one sequence: 257 literal codes, then the
  // single distance code, of length 0 (RFC 1951: no distances used).
  uint8_t lengths[literal_symbols + 1];
  code_lengths(frequencies, literal_symbols, max_literal_bits, lengths);
  lengths[literal_symbols] = 0;
  length_runs runs;
  run_length_code(lengths, literal_symbols + 1, &runs);
  uint32_t run_frequencies[length_symbols] = {0};
  for (int i = 0; i < runs.count; i++) run_frequencies[runs.symbol[i]]++;
  uint8_t run_lengths[length_symbols];
  code_lengths(run_frequencies, length_symbols, max_length_bits, run_lengths);
  int sent_lengths = length_symbols;
  while (sent_lengths > 4 && run_lengths[length_order[sent_lengths - 1]] == 0) sent_lengths--;

  uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)sent_lengths;
  for (int i = 0; i < runs.count; i++) bits += run_lengths[runs.symbol[i]] + extra_bits[runs.symbol[i]];
  for (int s = 0; s < literal_symbols; s++) bits += (uint64_t)frequencies[s] * lengths[s];
  if (bits >= 3 + 7 + 32 + 8 * (uint64_t)size) {
    stored_block(writer, data, size, last);
    return;
  }

  uint16_t codes[literal_symbols], run_codes[length_symbols];
  canonical_codes(lengths, literal_symbols, codes);
  canonical_codes(run_lengths, length_symbols, run_codes);
  put_bits(writer, (uint32_t)last | 2 << 1, 3);
  put_bits(writer, literal_symbols - 257, 5);
  put_bits(writer, 0, 5);  // one distance code
  put_bits(writer, (uint32_t)sent_lengths - 4, 4);
  for (int i = 0; i < sent_lengths; i++) put_bits(writer, run_lengths[length_order[i]], 3);
  for (int i = 0; i < runs.count; i++) {
    const int symbol = runs.symbol[i];
    put_bits(writer, run_codes[symbol], run_lengths[symbol]);
    if (extra_bits[symbol]) put_bits(writer, runs.extra[i], extra_bits[symbol]);
  }
  put_codes(writer, data, size, codes, lengths);
  put_bits(writer, codes[end_of_block], lengths[end_of_block]);
}

size_t pk_deflate_huffman_bound(size_t size) {
  // Never more than stored blocks: 5 bytes each and the data, plus the
  // zlib header, a block's leftover bits and the Adler-32.
  return 2 + (size / block_bytes + 1) * 8 + size + 4;
}

size_t pk_deflate_huffman(const uint8_t *data, size_t size, uint8_t *out) {
  // CM 8 (deflate) with a 32 KB window, FLEVEL 0 (fastest); the check
  // bits make the pair a multiple of 31.
  out[0] = 0x78;
  out[1] = 0x01;
  bit_writer writer = {.at = out + 2};
  const size_t blocks = size == 0 ? 1 : (size + block_bytes - 1) / block_bytes;
  // Parts of equal size: no short block at the end paying a header alone.
  const size_t part = size == 0 ? 0 : (size + blocks - 1) / blocks;
  for (size_t at = 0, b = 0; b < blocks; b++) {
    const size_t length = size - at < part ? size - at : part;
    block(&writer, data + at, length, b + 1 == blocks);
    at += length;
  }
  align_to_byte(&writer);
  const uint32_t check = (uint32_t)adler32(adler32(0, NULL, 0), data, (uInt)size);
  for (int i = 0; i < 4; i++) *writer.at++ = (uint8_t)(check >> (24 - 8 * i));
  return (size_t)(writer.at - out);
}
