/*
 * The C side of the benchmark's QP-ex/CQ-ex ping-pong: ibv_rc_pingpong's exchange over RC, with
 * every send built through ibv_wr_start/ibv_wr_send/ibv_wr_set_sge/ibv_wr_complete and every
 * completion read through ibv_start_poll/ibv_next_poll/ibv_end_poll, what RcPingpong does with
 * -N --cq-ex. The same TCP exchange of "LID:QPN:PSN:GID" as ibv_rc_pingpong (so either side may
 * be the Java one), the same options it shares with RcPingpong (-p -d -i -s -r -n -g, then the
 * server's name on the client) and the same two result lines. Polls, never sleeps on events; the
 * path MTU is 1024. Built by the benchmark at run time:
 *   gcc -O2 -o xpingpong xpingpong.c -libverbs
 */
#include <infiniband/verbs.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { RECV_WRID = 1, SEND_WRID = 2, WIRE = 52 };

struct dest {
	unsigned lid, qpn, psn;
	uint8_t gid[16];
};

static int port = 18515, ib_port = 1, size = 4096, rx_depth = 500, iters = 1000, gid_index = -1;
static const char *device, *server;
static struct ibv_qp *qp;
static struct ibv_qp_ex *qpx;
static struct ibv_cq_ex *cq;
static struct ibv_mr *mr;
static char *buf;

static void die(const char *what)
{
	fprintf(stderr, "%s (errno %d)\n", what, errno);
	exit(1);
}

static void to_wire(const struct dest *d, char *msg)
{
	int n = sprintf(msg, "%04x:%06x:%06x:", d->lid, d->qpn, d->psn);
	for (int i = 0; i < 16; i++)
		n += sprintf(msg + n, "%02x", d->gid[i]);
}

static void from_wire(const char *msg, struct dest *d)
{
	char hex[33] = { 0 };
	if (sscanf(msg, "%x:%x:%x:%32s", &d->lid, &d->qpn, &d->psn, hex) != 4 || strlen(hex) != 32)
		die("not an rc_pingpong address");
	for (int i = 0; i < 16; i++)
		sscanf(hex + 2 * i, "%2hhx", &d->gid[i]);
}

static void read_all(int fd, void *p, size_t n)
{
	for (size_t done = 0; done < n;) {
		ssize_t r = read(fd, (char *) p + done, n - done);
		if (r <= 0)
			die("Couldn't read remote address");
		done += r;
	}
}

static void connect_to(const struct dest *d, unsigned my_psn)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024, .dest_qp_num = d->qpn,
		.rq_psn = d->psn, .max_dest_rd_atomic = 1, .min_rnr_timer = 12,
		.ah_attr = { .dlid = d->lid, .port_num = ib_port } };
	static const uint8_t zero[8];
	if (memcmp(d->gid + 8, zero, 8)) {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.hop_limit = 1;
		a.ah_attr.grh.sgid_index = gid_index;
		memcpy(a.ah_attr.grh.dgid.raw, d->gid, 16);
	}
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
			| IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("Failed to modify QP to RTR");
	memset(&a, 0, sizeof a);
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = my_psn;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN
			| IBV_QP_MAX_QP_RD_ATOMIC))
		die("Failed to modify QP to RTS");
}

/* The client sends its address and reads the server's; the server reads, connects, answers. */
static struct dest exchange(const struct dest *mine)
{
	char msg[WIRE] = { 0 }, done[5] = "done";
	struct dest theirs;
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res;
	char service[8];
	int fd = -1;
	snprintf(service, sizeof service, "%d", port);
	if (server) {
		if (getaddrinfo(server, service, &hints, &res))
			die("getaddrinfo");
		for (struct addrinfo *t = res; t && fd < 0; t = t->ai_next) {
			fd = socket(t->ai_family, t->ai_socktype, t->ai_protocol);
			if (fd >= 0 && connect(fd, t->ai_addr, t->ai_addrlen)) {
				close(fd);
				fd = -1;
			}
		}
		freeaddrinfo(res);
		if (fd < 0)
			die("Couldn't connect");
		to_wire(mine, msg);
		if (write(fd, msg, WIRE) != WIRE)
			die("Couldn't send local address");
		read_all(fd, msg, WIRE);
		from_wire(msg, &theirs);
		if (write(fd, done, sizeof done) != sizeof done)
			die("Couldn't send done");
	} else {
		int one = 1, listener;
		hints.ai_flags = AI_PASSIVE;
		if (getaddrinfo(NULL, service, &hints, &res))
			die("getaddrinfo");
		listener = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
		setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (listener < 0 || bind(listener, res->ai_addr, res->ai_addrlen) || listen(listener, 1))
			die("Couldn't listen");
		freeaddrinfo(res);
		fd = accept(listener, NULL, NULL);
		close(listener);
		if (fd < 0)
			die("accept");
		read_all(fd, msg, WIRE);
		from_wire(msg, &theirs);
		connect_to(&theirs, mine->psn);
		memset(msg, 0, sizeof msg);
		to_wire(mine, msg);
		if (write(fd, msg, WIRE) != WIRE)
			die("Couldn't send local address");
		read_all(fd, done, sizeof done);
	}
	close(fd);
	return theirs;
}

static int post_recvs(int n)
{
	struct ibv_sge sge = { (uintptr_t) buf, size, mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = RECV_WRID, .sg_list = &sge, .num_sge = 1 }, *bad;
	int i;
	for (i = 0; i < n; i++)
		if (ibv_post_recv(qp, &wr, &bad))
			break;
	return i;
}

static void post_send(void)
{
	ibv_wr_start(qpx);
	qpx->wr_id = SEND_WRID;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(qpx);
	ibv_wr_set_sge(qpx, mr->lkey, (uintptr_t) buf, size);
	if (ibv_wr_complete(qpx))
		die("Couldn't post send");
}

int main(int argc, char **argv)
{
	int opt, n;
	while ((opt = getopt(argc, argv, "p:d:i:s:r:n:g:")) != -1) {
		switch (opt) {
		case 'p': port = atoi(optarg); break;
		case 'd': device = optarg; break;
		case 'i': ib_port = atoi(optarg); break;
		case 's': size = atoi(optarg); break;
		case 'r': rx_depth = atoi(optarg); break;
		case 'n': iters = atoi(optarg); break;
		case 'g': gid_index = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: xpingpong [-p port] [-d dev] [-i ib-port] [-s size] [-r rx-depth] [-n iters]"
				" [-g gid-index] [server]\n");
			return 1;
		}
	}
	if (optind < argc)
		server = argv[optind];

	struct ibv_device **list = ibv_get_device_list(&n);
	struct ibv_context *ctx = NULL;
	for (int i = 0; i < n && !ctx; i++)
		if (!device || !strcmp(ibv_get_device_name(list[i]), device))
			ctx = ibv_open_device(list[i]);
	if (!ctx)
		die("Couldn't open the device");
	buf = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
	memset(buf, 0x7b, size);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	mr = pd ? ibv_reg_mr(pd, buf, size, IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!mr)
		die("Couldn't register MR");
	struct ibv_cq_init_attr_ex ca = { .cqe = rx_depth + 1 };
	cq = ibv_create_cq_ex(ctx, &ca);
	if (!cq)
		die("Couldn't create CQ");
	struct ibv_qp_init_attr_ex qa = { .send_cq = ibv_cq_ex_to_cq(cq), .recv_cq = ibv_cq_ex_to_cq(cq),
		.cap = { 1, rx_depth, 1, 1, 0 }, .qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS, .pd = pd,
		.send_ops_flags = IBV_QP_EX_WITH_SEND };
	qp = ibv_create_qp_ex(ctx, &qa);
	if (!qp)
		die("Couldn't create QP");
	qpx = ibv_qp_to_qp_ex(qp);
	struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT, .port_num = ib_port };
	if (ibv_modify_qp(qp, &init, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die("Failed to modify QP to INIT");

	int routs = post_recvs(rx_depth);
	if (routs < rx_depth)
		die("Couldn't post receive");
	struct ibv_port_attr pa;
	if (ibv_query_port(ctx, ib_port, &pa))
		die("Couldn't get port info");
	srand48(getpid() * time(NULL));
	struct dest mine = { .lid = pa.lid, .qpn = qp->qp_num, .psn = lrand48() & 0xffffff };
	if (gid_index >= 0 && ibv_query_gid(ctx, ib_port, gid_index, (union ibv_gid *) mine.gid))
		die("can't read sgid");
	struct dest remote = exchange(&mine);
	if (server)
		connect_to(&remote, mine.psn);

	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	int pending = RECV_WRID, rcnt = 0, scnt = 0;
	if (server) {
		post_send();
		pending |= SEND_WRID;
	}
	struct ibv_poll_cq_attr attr = { 0 };
	while (rcnt < iters || scnt < iters) {
		int rc;
		while ((rc = ibv_start_poll(cq, &attr)) == ENOENT)
			;
		if (rc)
			die("poll CQ failed");
		do {
			if (cq->status != IBV_WC_SUCCESS) {
				fprintf(stderr, "Failed status %s (%d) for wr_id %d\n", ibv_wc_status_str(cq->status),
					cq->status, (int) cq->wr_id);
				return 1;
			}
			switch ((int) cq->wr_id) {
			case SEND_WRID:
				scnt++;
				break;
			case RECV_WRID:
				if (--routs <= 1) {
					routs += post_recvs(rx_depth - routs);
					if (routs < rx_depth)
						die("Couldn't post receive");
				}
				rcnt++;
				break;
			default:
				fprintf(stderr, "Completion for unknown wr_id %d\n", (int) cq->wr_id);
				return 1;
			}
			pending &= ~(int) cq->wr_id;
			if (scnt < iters && !pending) {
				post_send();
				pending = RECV_WRID | SEND_WRID;
			}
		} while ((rc = ibv_next_poll(cq)) == 0);
		/* soft-RoCE's next_poll ends the poll itself when the queue is empty; others need end_poll */
		if (rc != ENOENT)
			die("poll CQ failed");
		if (strncmp(ibv_get_device_name(ctx->device), "rxe", 3))
			ibv_end_poll(cq);
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	float usec = (end.tv_sec - start.tv_sec) * 1000000 + (end.tv_nsec - start.tv_nsec) / 1000;
	long long bytes = (long long) size * iters * 2;
	printf("%lld bytes in %.2f seconds = %.2f Mbit/sec\n", bytes, usec / 1000000., bytes * 8. / usec);
	printf("%d iters in %.2f seconds = %.2f usec/iter\n", iters, usec / 1000000., usec / iters);
	ibv_destroy_qp(qp);
	ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
