/*
 * Prints every field libibmad knows (its enum MAD_FIELDS) as "index name bitOffset bitLength",
 * found by encoding an all-ones value into a zeroed buffer and looking at which bits changed.
 * Used by jrdma's tests as an independent oracle for the IBA structure descriptions.
 */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <infiniband/mad.h>

int main(void)
{
	uint8_t ones[256], buf[2048];
	memset(ones, 0xff, sizeof(ones));
	for (int f = IB_NO_FIELD + 1; f < IB_FIELD_LAST_; f++) {
		const char *name = mad_field_name(f);
		if (!name)
			continue;
		memset(buf, 0, sizeof(buf));
		mad_encode_field(buf, f, ones);
		int first = -1, last = -1;
		for (int bit = 0; bit < (int)sizeof(buf) * 8; bit++) {
			if (buf[bit / 8] & (0x80 >> (bit % 8))) {
				if (first < 0)
					first = bit;
				last = bit;
			}
		}
		printf("%d %s %d %d\n", f, name, first, first < 0 ? 0 : last - first + 1);
	}
	return 0;
}
