// A zlib stream (RFC 1950) of Huffman-coded literals only (RFC 1951,
// dynamic blocks, no LZ77 matching), for the cache's PNG thumbnails.
#ifndef PK_HUFFMAN_DEFLATE_H
#define PK_HUFFMAN_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

// The most bytes pk_deflate_huffman writes for `size` bytes of input.
size_t pk_deflate_huffman_bound(size_t size);

// Compresses `data` into `out` (at least pk_deflate_huffman_bound(size)
// bytes); returns the bytes written.
size_t pk_deflate_huffman(const uint8_t *data, size_t size, uint8_t *out);

#endif
