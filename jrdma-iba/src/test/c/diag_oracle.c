/*
 * jrdma test oracle for org.jrdma.iba.diag: prints what libibmad's own dumpers make of the bytes
 * and values jrdma's tests give it, so the Java printers can be compared with them.
 *
 * Reads commands from standard input, one per line, and answers each with the dumper's text
 * followed by a line "@@":
 *
 *   dump <kind> <hex bytes>   kind: nodeinfo, switchinfo, perfcounters, perfcounters_ext,
 *                             portinfo_lib (mad_dump_portinfo), portinfo (the loop smpquery and
 *                             saquery run, infiniband-diags' dump_portinfo, with keys shown),
 *                             sltovl
 *   perfext <capmask> <capmask2> <hex bytes>
 *                             the pieces perfquery -x prints for these PerfMgt capability masks
 *   vlarb <entries> <hex bytes>
 *                             mad_dump_vlarbitration over that many entries
 *   val <field> <value>       mad_dump_val of one field of at most 32 bits; the text has its
 *                             newlines and tabs escaped as \n and \t
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <infiniband/mad.h>

#define FIELD(f) { #f, f }
static const struct {
	const char *name;
	enum MAD_FIELDS field;
} fields[] = {
	FIELD(IB_NODE_TYPE_F), FIELD(IB_NODE_VENDORID_F), FIELD(IB_NODE_DEVID_F), FIELD(IB_NODE_REVISION_F),
	FIELD(IB_PORT_CAPMASK_F), FIELD(IB_PORT_CAPMASK2_F), FIELD(IB_PORT_DIAG_F),
	FIELD(IB_PORT_LINK_WIDTH_ENABLED_F), FIELD(IB_PORT_LINK_WIDTH_SUPPORTED_F),
	FIELD(IB_PORT_LINK_WIDTH_ACTIVE_F), FIELD(IB_PORT_LINK_SPEED_SUPPORTED_F), FIELD(IB_PORT_STATE_F),
	FIELD(IB_PORT_PHYS_STATE_F), FIELD(IB_PORT_LINK_DOWN_DEF_F), FIELD(IB_PORT_LINK_SPEED_ACTIVE_F),
	FIELD(IB_PORT_LINK_SPEED_ENABLED_F), FIELD(IB_PORT_NEIGHBOR_MTU_F), FIELD(IB_PORT_VL_CAP_F),
	FIELD(IB_PORT_INIT_TYPE_F), FIELD(IB_PORT_MTU_CAP_F), FIELD(IB_PORT_OPER_VLS_F),
	FIELD(IB_PORT_LINK_SPEED_EXT_ACTIVE_F), FIELD(IB_PORT_LINK_SPEED_EXT_SUPPORTED_F),
	FIELD(IB_PORT_LINK_SPEED_EXT_ENABLED_F), FIELD(IB_PC_COUNTER_SELECT2_F),
	FIELD(IB_PC_EXT_COUNTER_SELECT2_F), FIELD(IB_SW_MCAST_FDB_TOP_F),
};

static int hex_bytes(const char *hex, uint8_t *out, int max)
{
	int n = 0;
	while (hex[0] && hex[1] && hex[0] != '\n' && n < max) {
		unsigned v;
		if (sscanf(hex, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

/* infiniband-diags' dump_portinfo (ibdiag_common.c, rdma-core 44) with show_keys set. */
static void dump_portinfo(void *pi)
{
	char val[64], buf[1024];
	int field;
	for (field = IB_PORT_FIRST_F; field < IB_PORT_LAST_F; field++) {
		mad_decode_field(pi, field, val);
		if (!mad_dump_field(field, buf, 1024, val))
			return;
		printf("%s\n", buf);
	}
	for (field = IB_PORT_CAPMASK2_F; field < IB_PORT_LINK_SPEED_EXT_LAST_F; field++) {
		mad_decode_field(pi, field, val);
		if (!mad_dump_field(field, buf, 1024, val))
			return;
		printf("%s\n", buf);
	}
}

/* perfquery's dump_perfcounters_ext (rdma-core 44). */
static void perfext(uint8_t *pc, int pcsize, unsigned cap, unsigned cap2)
{
	char buf[1536];
	size_t offset;
	memset(buf, 0, sizeof(buf));
	mad_dump_fields(buf, sizeof(buf), pc, pcsize, IB_PC_EXT_FIRST_F, IB_PC_EXT_XMT_UPKTS_F);
	offset = strlen(buf);
	if (cap & (1 << 9)) {
		mad_dump_fields(buf + offset, sizeof(buf) - offset, pc, pcsize, IB_PC_EXT_XMT_UPKTS_F, IB_PC_EXT_LAST_F);
		offset += strlen(buf + offset);
	}
	if (cap2 & (1 << 1))
		mad_dump_fields(buf + offset, sizeof(buf) - offset, pc, pcsize, IB_PC_EXT_COUNTER_SELECT2_F,
				IB_PC_EXT_ERR_LAST_F);
	printf("%s", buf);
}

int main(void)
{
	static char line[8192], cmd[32], kind[32], buf[8192];
	static uint8_t data[1024];

	while (fgets(line, sizeof(line), stdin)) {
		memset(data, 0, sizeof(data));
		memset(buf, 0, sizeof(buf));
		if (sscanf(line, "%31s", cmd) != 1)
			continue;
		if (!strcmp(cmd, "dump")) {
			char *hex;
			sscanf(line, "%*s %31s", kind);
			hex = strchr(strchr(line, ' ') + 1, ' ') + 1;
			hex_bytes(hex, data, sizeof(data));
			if (!strcmp(kind, "nodeinfo"))
				mad_dump_nodeinfo(buf, 2048, data, 64);
			else if (!strcmp(kind, "switchinfo"))
				mad_dump_switchinfo(buf, 2048, data, 64);
			else if (!strcmp(kind, "perfcounters"))
				mad_dump_perfcounters(buf, 1536, data, 192);
			else if (!strcmp(kind, "perfcounters_ext"))
				mad_dump_perfcounters_ext(buf, 1536, data, 192);
			else if (!strcmp(kind, "portinfo_lib"))
				mad_dump_portinfo(buf, 4096, data, 64);
			else if (!strcmp(kind, "portinfo"))
				dump_portinfo(data);
			else if (!strcmp(kind, "sltovl"))
				mad_dump_sltovl(buf, 2048, data, 64);
			else {
				fprintf(stderr, "unknown kind %s\n", kind);
				return 2;
			}
			printf("%s@@\n", buf);
		} else if (!strcmp(cmd, "perfext")) {
			unsigned cap, cap2;
			char hex[4096];
			sscanf(line, "%*s %u %u %4095s", &cap, &cap2, hex);
			hex_bytes(hex, data, sizeof(data));
			perfext(data, 192, cap, cap2);
			printf("@@\n");
		} else if (!strcmp(cmd, "vlarb")) {
			int entries;
			char hex[4096];
			sscanf(line, "%*s %d %4095s", &entries, hex);
			hex_bytes(hex, data, sizeof(data));
			mad_dump_vlarbitration(buf, 2048, data, entries * 2);
			printf("%s@@\n", buf);
		} else if (!strcmp(cmd, "val")) {
			char name[64];
			unsigned long long value;
			uint32_t v32;
			unsigned i;
			int found = 0;
			sscanf(line, "%*s %63s %llu", name, &value);
			for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
				if (!strcmp(fields[i].name, name)) {
					v32 = (uint32_t)value;
					mad_dump_val(fields[i].field, buf, 2048, &v32);
					found = 1;
				}
			}
			if (!found) {
				fprintf(stderr, "unknown field %s\n", name);
				return 2;
			}
			for (char *p = buf; *p; p++) {
				if (*p == '\n')
					fputs("\\n", stdout);
				else if (*p == '\t')
					fputs("\\t", stdout);
				else
					putchar(*p);
			}
			printf("\n@@\n");
		} else {
			fprintf(stderr, "unknown command %s\n", cmd);
			return 2;
		}
	}
	return 0;
}
