/*
 * The C side of jrdma's wire-format benchmark: decodes and encodes the same libibmad fields the
 * Java benchmark does, with libibmad's table-driven mad_decode_field / mad_encode_field, and prints
 * "decode <ns/op>" and "encode <ns/op>" for one whole attribute per operation.
 *
 * Built at run time by org.jrdma.bench.WireComparison with -DFIELDS_FILE naming a generated
 * include that lists the attribute's MAD_FIELDS identifiers, one "X," per line.
 * Usage: wire_bench <attribute bytes> <seconds>
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <infiniband/mad.h>

static const int fields[] = {
#include FIELDS_FILE
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static volatile uint64_t sink;

int main(int argc, char **argv)
{
	int size = argc > 1 ? atoi(argv[1]) : 64;
	double seconds = argc > 2 ? atof(argv[2]) : 2.0;
	uint8_t wire[256], out[256];
	uint64_t values[NFIELDS];
	srand(42);
	for (int i = 0; i < (int)sizeof(wire); i++)
		wire[i] = rand();
	for (unsigned f = 0; f < NFIELDS; f++) {
		values[f] = 0;
		mad_decode_field(wire, fields[f], &values[f]);
	}

	/* decode: every field of the attribute from the received bytes */
	long ops = 0;
	double start = now(), end = start + seconds * 1e9, t;
	do {
		for (int k = 0; k < 1000; k++) {
			uint64_t acc = 0;
			for (unsigned f = 0; f < NFIELDS; f++) {
				uint64_t v = 0;
				mad_decode_field(wire, fields[f], &v);
				acc += v;
			}
			sink += acc;
		}
		ops += 1000;
	} while ((t = now()) < end);
	printf("decode %.2f\n", (t - start) / ops);

	/* encode: every field into a reused buffer */
	ops = 0;
	start = now();
	end = start + seconds * 1e9;
	do {
		for (int k = 0; k < 1000; k++) {
			for (unsigned f = 0; f < NFIELDS; f++)
				mad_encode_field(out, fields[f], &values[f]);
			sink += out[k & 63];
		}
		ops += 1000;
	} while ((t = now()) < end);
	printf("encode %.2f\n", (t - start) / ops);
	(void)size;
	return 0;
}
