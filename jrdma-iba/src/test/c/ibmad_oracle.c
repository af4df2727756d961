/*
 * libibmad as an independent oracle for jrdma's IBA structure descriptions (LibibmadOracleTest).
 *
 * Built at test time against the installed libibmad (gcc ... -libmad). The field list is not
 * copied from mad.h by hand: the test parses the identifiers of enum MAD_FIELDS from the header and
 * writes them into mad_fields.inc, one "{IB_X_F, "IB_X_F"}," line each, so that the C compiler
 * supplies their values.
 *
 * Usage: ibmad_oracle INPUT
 *
 * INPUT (binary, written by the test): u32 big-endian buffer count B, u32 big-endian round count R
 * (R <= B), then B random buffers of BUF_SIZE bytes, then R random value pools of BUF_SIZE bytes.
 *
 * Output, one record a line, fields separated by single spaces:
 *
 *   F ident value path length first last popcount name
 *       for every identifier: its enum value, how libibmad moves it ("u32", "u64" or "array", by
 *       bit length, as mad_decode_field/mad_encode_field do), its bit length, and the bits that
 *       encoding the field's largest value into a zeroed buffer sets (first and last bit counted
 *       from the most significant bit of byte 0, -1 when none, and how many); name is
 *       mad_field_name(), possibly empty, last because it is free text.
 *   D buffer value hex
 *       mad_decode_field() of every field (by enum value, once per value) at base offset 0 of
 *       each buffer: u32/u64 as hex numbers, arrays as hex bytes.
 *   E round value hex
 *       mad_encode_field() of a value taken from value pool `round` into a copy of buffer `round`,
 *       printed as the bytes first/8 .. last/8 of the result (the field's bytes and whatever
 *       other bits share them). The value is read from the pool at byte (value * 8) % (BUF_SIZE -
 *       MAX_VALUE): u32 fields take 4 bytes big-endian masked to the field's length, u64 fields 8
 *       bytes big-endian, arrays length/8 bytes as they are.
 *
 * The bit length is found by decoding a buffer of all ones, not by encoding all ones: libibmad's
 * _set_field() ORs the unmasked rest of the value into the last byte, so an out-of-range value
 * spills into the neighbouring bits of fields that do not end on a byte boundary.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mad.h>

#define BUF_SIZE 2048
#define MAX_VALUE 256

struct entry {
	int value;
	const char *ident;
};

static const struct entry entries[] = {
#include "mad_fields.inc"
};

#define NENTRIES ((int)(sizeof(entries) / sizeof(entries[0])))

enum path { PATH_U32, PATH_U64, PATH_ARRAY };

struct layout {
	enum path path;
	int length;
	int first, last, popcount;
};

static const char *path_names[] = { "u32", "u64", "array" };

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static uint32_t mask32(int length)
{
	return length >= 32 ? 0xffffffffu : (1u << length) - 1;
}

static struct layout probe(int field)
{
	struct layout l = { PATH_U32, 0, -1, -1, 0 };
	uint8_t ones[BUF_SIZE], val[BUF_SIZE], buf[BUF_SIZE];
	memset(ones, 0xff, sizeof ones);
	memset(val, 0xa5, sizeof val);
	mad_decode_field(ones, field, val);
	int written = 0;
	while (written < (int)sizeof val && val[written] != 0xa5)
		written++;
	if (written == 8) {
		l.path = PATH_U64;
		l.length = 64;
	} else if (written > 8) {
		l.path = PATH_ARRAY;
		l.length = written * 8;
	} else {
		uint32_t v;
		memcpy(&v, val, sizeof v);
		l.path = PATH_U32;
		l.length = __builtin_popcount(v);
	}
	if (l.length == 0)
		return l;
	memset(buf, 0, sizeof buf);
	if (l.path == PATH_U32) {
		uint32_t v = mask32(l.length);
		mad_encode_field(buf, field, &v);
	} else {
		mad_encode_field(buf, field, ones);
	}
	for (int bit = 0; bit < BUF_SIZE * 8; bit++) {
		if (buf[bit / 8] & (0x80 >> (bit % 8))) {
			if (l.first < 0)
				l.first = bit;
			l.last = bit;
			l.popcount++;
		}
	}
	return l;
}

static void hex(const uint8_t *p, int n)
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < n; i++) {
		putchar(digits[p[i] >> 4]);
		putchar(digits[p[i] & 15]);
	}
}

static void print_value(const struct layout *l, const uint8_t *val)
{
	if (l->path == PATH_U32) {
		uint32_t v;
		memcpy(&v, val, sizeof v);
		printf("%x", v);
	} else if (l->path == PATH_U64) {
		uint64_t v;
		memcpy(&v, val, sizeof v);
		printf("%llx", (unsigned long long)v);
	} else {
		hex(val, l->length / 8);
	}
}

static uint8_t *read_all(const char *path, long *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *data = malloc(*size ? *size : 1);
	if (!data || fread(data, 1, *size, f) != (size_t)*size) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	return data;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s INPUT\n", argv[0]);
		return 2;
	}
	long size;
	uint8_t *input = read_all(argv[1], &size);
	if (size < 8) {
		fprintf(stderr, "input too short\n");
		return 2;
	}
	uint32_t nbuffers = be32(input), nrounds = be32(input + 4);
	if (nrounds > nbuffers || size != 8 + (long)(nbuffers + nrounds) * BUF_SIZE) {
		fprintf(stderr, "input has %ld bytes, not 8 + (%u + %u) * %d\n", size, nbuffers, nrounds, BUF_SIZE);
		return 2;
	}
	const uint8_t *buffers = input + 8;
	const uint8_t *pools = buffers + (long)nbuffers * BUF_SIZE;

	static struct layout layouts[IB_FIELD_LAST_];
	static char seen[IB_FIELD_LAST_];
	for (int i = 0; i < NENTRIES; i++) {
		int f = entries[i].value;
		if (f <= IB_NO_FIELD || f >= IB_FIELD_LAST_) {
			printf("F %s %d none 0 0 -1 -1 0 \n", entries[i].ident, f);
			continue;
		}
		const char *name = mad_field_name(f);
		if (!seen[f]) {
			layouts[f] = probe(f);
			seen[f] = 1;
		}
		struct layout *l = &layouts[f];
		printf("F %s %d %s %d %d %d %d %s\n", entries[i].ident, f, path_names[l->path], l->length,
		       l->first, l->last, l->popcount, name ? name : "");
	}

	uint8_t val[BUF_SIZE];
	for (int f = IB_NO_FIELD + 1; f < IB_FIELD_LAST_; f++) {
		if (!seen[f] || layouts[f].length == 0)
			continue;
		for (uint32_t b = 0; b < nbuffers; b++) {
			uint8_t buf[BUF_SIZE];
			memcpy(buf, buffers + (long)b * BUF_SIZE, BUF_SIZE);
			memset(val, 0, sizeof val);
			mad_decode_field(buf, f, val);
			printf("D %u %d ", b, f);
			print_value(&layouts[f], val);
			putchar('\n');
		}
	}

	for (int f = IB_NO_FIELD + 1; f < IB_FIELD_LAST_; f++) {
		struct layout *l = &layouts[f];
		if (!seen[f] || l->length == 0 || l->first < 0)
			continue;
		for (uint32_t r = 0; r < nrounds; r++) {
			uint8_t buf[BUF_SIZE];
			const uint8_t *v = pools + (long)r * BUF_SIZE + ((long)f * 8) % (BUF_SIZE - MAX_VALUE);
			memcpy(buf, buffers + (long)r * BUF_SIZE, BUF_SIZE);
			if (l->path == PATH_U32) {
				uint32_t x = be32(v) & mask32(l->length);
				mad_encode_field(buf, f, &x);
			} else if (l->path == PATH_U64) {
				uint64_t x = be64(v);
				mad_encode_field(buf, f, &x);
			} else {
				memcpy(val, v, l->length / 8);
				mad_encode_field(buf, f, val);
			}
			printf("E %u %d ", r, f);
			hex(buf + l->first / 8, l->last / 8 - l->first / 8 + 1);
			putchar('\n');
		}
	}
	free(input);
	return 0;
}
