/*
 * sha256: FIPS 180-4 SHA-256, small and dependency-free. The history
 * database stores the machine id only as a salted SHA-256, so that runs of
 * one machine can be grouped without keeping the id itself.
 */
#ifndef WSLGPU_SHA256_H
#define WSLGPU_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t total;      /* bytes hashed so far */
	unsigned char block[64];
	size_t fill;         /* bytes waiting in block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, unsigned char digest[32]);
/* The digest of data as 64 lower-case hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
