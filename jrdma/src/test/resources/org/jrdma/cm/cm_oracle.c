/*
 * What C sees of the librdmacm calls CmInVm makes in Java, printed in the same words:
 *   cm_oracle getaddrinfo NODE SERVICE FLAGS FAMILY QP_TYPE PORT_SPACE   ("-" for a NULL node or service)
 *   cm_oracle options IP PORT PORT2      rdma_set_option's answers, in and out of the states they need
 *   cm_oracle afib GID PORT               AF_IB bind, listen, resolve_addr and resolve_route on a GID
 *   cm_oracle path IP PORT TOS            the first path record of a resolved route (TOS -1: not set), but
 *                                         its flow label, new for each route on rxe, and its rate
 * Each result is 0 or the errno of the failed call.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <infiniband/ib.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct rdma_event_channel *channel;

static int result(int ret)
{
	return ret ? errno : 0;
}

static void hex(const uint8_t *bytes, int n)
{
	for (int i = 0; i < n; i++)
		printf("%02x", bytes[i]);
}

static void address(const struct sockaddr *sa)
{
	char text[INET_ADDRSTRLEN];

	if (!sa) {
		printf("-");
	} else if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *) sa;
		printf("%s:%u", inet_ntop(AF_INET, &in->sin_addr, text, sizeof text), ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) sa;
		printf("[");
		hex(in6->sin6_addr.s6_addr, 16);
		printf("]:%u", ntohs(in6->sin6_port));
	} else if (sa->sa_family == AF_IB) {
		const struct sockaddr_ib *ib = (const struct sockaddr_ib *) sa;
		printf("ib[");
		hex(ib->sib_addr.sib_raw, 16);
		printf("] sid 0x%llx mask 0x%llx pkey 0x%x", (unsigned long long) be64toh(ib->sib_sid),
		       (unsigned long long) be64toh(ib->sib_sid_mask), be16toh(ib->sib_pkey));
	} else {
		printf("family %d", sa->sa_family);
	}
}

static int getaddrinfo_case(char **argv)
{
	struct rdma_addrinfo hints = {}, *res, *ai;
	char *node = strcmp(argv[0], "-") ? argv[0] : NULL;
	char *service = strcmp(argv[1], "-") ? argv[1] : NULL;
	int ret;

	hints.ai_flags = atoi(argv[2]);
	hints.ai_family = atoi(argv[3]);
	hints.ai_qp_type = atoi(argv[4]);
	hints.ai_port_space = strtol(argv[5], NULL, 0);
	errno = 0;
	ret = rdma_getaddrinfo(node, service, &hints, &res);
	if (ret) {
		printf("error %d errno %d\n", ret, ret == -1 ? errno : 0);
		return 0;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		printf("flags %d family %d qp_type %d port_space 0x%x src ", ai->ai_flags, ai->ai_family,
		       ai->ai_qp_type, ai->ai_port_space);
		address(ai->ai_src_addr);
		printf(" dst ");
		address(ai->ai_dst_addr);
		printf(" route_len %zu connect_len %zu\n", ai->ai_route_len, ai->ai_connect_len);
	}
	rdma_freeaddrinfo(res);
	return 0;
}

static struct sockaddr_in ipv4(const char *ip, int port)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(port) };

	inet_pton(AF_INET, ip, &in.sin_addr);
	return in;
}

/* Waits for the next event and prints it; returns its type. */
static int event(void)
{
	struct rdma_cm_event *e;
	int type;

	if (rdma_get_cm_event(channel, &e)) {
		printf("get_cm_event %d\n", errno);
		exit(1);
	}
	type = e->event;
	printf("event %s status %d\n", rdma_event_str(e->event), e->status);
	rdma_ack_cm_event(e);
	return type;
}

static int options_case(char **argv)
{
	struct rdma_cm_id *id, *ud, *a, *b, *c, *d;
	struct sockaddr_in at = ipv4(argv[0], atoi(argv[1]));
	struct sockaddr_in at2 = ipv4(argv[0], atoi(argv[2]));
	struct ibv_path_data path = { .flags = IBV_PATH_FLAG_GMP | IBV_PATH_FLAG_PRIMARY | IBV_PATH_FLAG_BIDIRECTIONAL };
	uint8_t tos = 32, timeout = 14;
	int one = 1;

	rdma_create_id(channel, &id, NULL, RDMA_PS_TCP);
	printf("tos %d\n", result(rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof tos)));
	printf("reuseaddr %d\n", result(rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_REUSEADDR, &one, sizeof one)));
	printf("afonly %d\n", result(rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_AFONLY, &one, sizeof one)));
	printf("ack_timeout %d\n", result(rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &timeout,
							    sizeof timeout)));
	printf("ib_path unresolved %d\n", result(rdma_set_option(id, RDMA_OPTION_IB, RDMA_OPTION_IB_PATH, &path,
								   sizeof path)));
	printf("resolve_addr %d\n", result(rdma_resolve_addr(id, NULL, (struct sockaddr *) &at, 2000)));
	event();
	printf("afonly resolved %d\n", result(rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_AFONLY, &one,
								sizeof one)));
	rdma_create_id(channel, &ud, NULL, RDMA_PS_UDP);
	printf("ack_timeout udp %d\n", result(rdma_set_option(ud, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &timeout,
								sizeof timeout)));
	rdma_create_id(channel, &a, NULL, RDMA_PS_TCP);
	rdma_create_id(channel, &b, NULL, RDMA_PS_TCP);
	printf("bind %d\n", result(rdma_bind_addr(a, (struct sockaddr *) &at)));
	printf("bind again %d\n", result(rdma_bind_addr(b, (struct sockaddr *) &at)));
	rdma_create_id(channel, &c, NULL, RDMA_PS_TCP);
	rdma_create_id(channel, &d, NULL, RDMA_PS_TCP);
	rdma_set_option(c, RDMA_OPTION_ID, RDMA_OPTION_ID_REUSEADDR, &one, sizeof one);
	rdma_set_option(d, RDMA_OPTION_ID, RDMA_OPTION_ID_REUSEADDR, &one, sizeof one);
	printf("bind reuse %d\n", result(rdma_bind_addr(c, (struct sockaddr *) &at2)));
	printf("bind reuse again %d\n", result(rdma_bind_addr(d, (struct sockaddr *) &at2)));
	printf("listen reuse %d\n", result(rdma_listen(c, 1)));
	printf("reuseaddr listening %d\n", result(rdma_set_option(c, RDMA_OPTION_ID, RDMA_OPTION_ID_REUSEADDR, &one,
								    sizeof one)));
	rdma_destroy_id(d);
	rdma_destroy_id(c);
	rdma_destroy_id(b);
	rdma_destroy_id(a);
	rdma_destroy_id(ud);
	rdma_destroy_id(id);
	return 0;
}

static int afib_case(char **argv)
{
	struct sockaddr_ib ib = { .sib_family = AF_IB, .sib_pkey = htobe16(0xffff) };
	struct rdma_cm_id *listener, *id;
	int ret;

	if (inet_pton(AF_INET6, argv[0], &ib.sib_addr) != 1) {
		printf("bad gid %s\n", argv[0]);
		return 2;
	}
	ib.sib_sid = htobe64(((uint64_t) RDMA_PS_TCP << 16) + atoi(argv[1]));
	ib.sib_sid_mask = htobe64(~0ULL);
	rdma_create_id(channel, &listener, NULL, RDMA_PS_TCP);
	ret = result(rdma_bind_addr(listener, (struct sockaddr *) &ib));
	printf("bind %d\n", ret);
	if (!ret) {
		printf("local ");
		address(rdma_get_local_addr(listener));
		printf("\ndevice %s port %u\n", listener->verbs ? ibv_get_device_name(listener->verbs->device) : "-",
		       listener->port_num);
		printf("listen %d\n", result(rdma_listen(listener, 1)));
	}
	rdma_create_id(channel, &id, NULL, RDMA_PS_TCP);
	ret = result(rdma_resolve_addr(id, NULL, (struct sockaddr *) &ib, 2000));
	printf("resolve_addr %d\n", ret);
	if (!ret && event() == RDMA_CM_EVENT_ADDR_RESOLVED) {
		printf("peer ");
		address(rdma_get_peer_addr(id));
		printf("\n");
		ret = result(rdma_resolve_route(id, 2000));
		printf("resolve_route %d\n", ret);
		if (!ret)
			event();
	}
	rdma_destroy_id(id);
	rdma_destroy_id(listener);
	return 0;
}

static int path_case(char **argv)
{
	struct sockaddr_in at = ipv4(argv[0], atoi(argv[1]));
	struct rdma_cm_id *id;
	struct ibv_sa_path_rec *p;
	int tos = atoi(argv[2]);

	rdma_create_id(channel, &id, NULL, RDMA_PS_TCP);
	if (tos >= 0) {
		uint8_t t = tos;
		rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &t, sizeof t);
	}
	rdma_resolve_addr(id, NULL, (struct sockaddr *) &at, 2000);
	event();
	rdma_resolve_route(id, 2000);
	event();
	printf("num_paths %d\n", id->route.num_paths);
	p = id->route.path_rec;
	printf("dgid ");
	hex(p->dgid.raw, 16);
	printf(" sgid ");
	hex(p->sgid.raw, 16);
	printf(" dlid %u slid %u hop_limit %u traffic_class %u pkey 0x%x sl %u mtu %u packet_life_time %u\n",
	       be16toh(p->dlid), be16toh(p->slid), p->hop_limit, p->traffic_class, be16toh(p->pkey), p->sl, p->mtu,
	       p->packet_life_time);
	rdma_destroy_id(id);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "getaddrinfo") && argc == 8)
		return getaddrinfo_case(argv + 2);
	channel = rdma_create_event_channel();
	if (!channel) {
		printf("rdma_create_event_channel %d\n", errno);
		return 1;
	}
	if (!strcmp(argv[1], "options") && argc == 5)
		return options_case(argv + 2);
	if (!strcmp(argv[1], "afib") && argc == 4)
		return afib_case(argv + 2);
	if (!strcmp(argv[1], "path") && argc == 5)
		return path_case(argv + 2);
	return 2;
}
