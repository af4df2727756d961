package org.jrdma.verbs;

import org.jrdma.iba.Guid;
import org.jrdma.verbs.ffi.IbvDeviceAttr;

/**
 * The limits and capabilities of a device, {@code struct ibv_device_attr} as
 * {@code ibv_query_device} fills it (IBA 11.2.1.2 Query HCA); what {@code ibv_devinfo -v} prints.
 * Counts are C {@code int}s; {@code vendorId}, {@code vendorPartId}, {@code hwVer} and
 * {@code deviceCapFlags} are unsigned 32-bit values.
 *
 * @param fwVer                 firmware version text
 * @param nodeGuid              node GUID
 * @param sysImageGuid          system image GUID
 * @param maxMrSize             largest memory region, bytes
 * @param pageSizeCap           supported page sizes, a bit per power of two
 * @param vendorId              IEEE vendor ID
 * @param vendorPartId          vendor's part ID
 * @param hwVer                 hardware version
 * @param maxQp                 queue pairs
 * @param maxQpWr               work requests per work queue
 * @param deviceCapFlags        {@code enum ibv_device_cap_flags}
 * @param maxSge                scatter/gather elements per send or receive work request
 * @param maxSgeRd              scatter/gather elements per RDMA read
 * @param maxCq                 completion queues
 * @param maxCqe                entries per completion queue
 * @param maxMr                 memory regions
 * @param maxPd                 protection domains
 * @param maxQpRdAtom           outstanding RDMA reads and atomics a QP may receive
 * @param maxEeRdAtom           the same per EE context (reliable datagram)
 * @param maxResRdAtom          responder resources for RDMA reads and atomics, device-wide
 * @param maxQpInitRdAtom       outstanding RDMA reads and atomics a QP may initiate
 * @param maxEeInitRdAtom       the same per EE context
 * @param atomicCap             {@code enum ibv_atomic_cap}: 0 none, 1 within the HCA, 2 global
 * @param maxEe                 EE contexts
 * @param maxRdd                reliable datagram domains
 * @param maxMw                 memory windows
 * @param maxRawIpv6Qp          raw IPv6 queue pairs
 * @param maxRawEthyQp          raw Ethertype queue pairs
 * @param maxMcastGrp           multicast groups
 * @param maxMcastQpAttach      queue pairs per multicast group
 * @param maxTotalMcastQpAttach multicast attachments, device-wide
 * @param maxAh                 address handles
 * @param maxFmr                fast memory regions
 * @param maxMapPerFmr          maps per fast memory region
 * @param maxSrq                shared receive queues
 * @param maxSrqWr              work requests per shared receive queue
 * @param maxSrqSge             scatter/gather elements per shared receive queue work request
 * @param maxPkeys              P_Key table entries
 * @param localCaAckDelay       local CA ack delay (IBA 9.7.6.1.3), as 4.096 us * 2^value
 * @param physPortCnt           number of physical ports
 */
public record DeviceAttr(String fwVer, Guid nodeGuid, Guid sysImageGuid, long maxMrSize, long pageSizeCap,
        int vendorId, int vendorPartId, int hwVer, int maxQp, int maxQpWr, int deviceCapFlags,
        int maxSge, int maxSgeRd, int maxCq, int maxCqe, int maxMr, int maxPd, int maxQpRdAtom,
        int maxEeRdAtom, int maxResRdAtom, int maxQpInitRdAtom, int maxEeInitRdAtom, int atomicCap,
        int maxEe, int maxRdd, int maxMw, int maxRawIpv6Qp, int maxRawEthyQp, int maxMcastGrp,
        int maxMcastQpAttach, int maxTotalMcastQpAttach, int maxAh, int maxFmr, int maxMapPerFmr,
        int maxSrq, int maxSrqWr, int maxSrqSge, int maxPkeys, int localCaAckDelay, int physPortCnt) {

    /** The attributes libibverbs reported in a {@code struct ibv_device_attr}. */
    static DeviceAttr of(IbvDeviceAttr raw) {
        return new DeviceAttr(raw.fwVer(), raw.nodeGuid(), raw.sysImageGuid(), raw.maxMrSize(),
                raw.pageSizeCap(), raw.vendorId(), raw.vendorPartId(), raw.hwVer(), raw.maxQp(),
                raw.maxQpWr(), raw.deviceCapFlags(), raw.maxSge(), raw.maxSgeRd(), raw.maxCq(), raw.maxCqe(),
                raw.maxMr(), raw.maxPd(), raw.maxQpRdAtom(), raw.maxEeRdAtom(), raw.maxResRdAtom(),
                raw.maxQpInitRdAtom(), raw.maxEeInitRdAtom(), raw.atomicCap(), raw.maxEe(), raw.maxRdd(),
                raw.maxMw(), raw.maxRawIpv6Qp(), raw.maxRawEthyQp(), raw.maxMcastGrp(),
                raw.maxMcastQpAttach(), raw.maxTotalMcastQpAttach(), raw.maxAh(), raw.maxFmr(),
                raw.maxMapPerFmr(), raw.maxSrq(), raw.maxSrqWr(), raw.maxSrqSge(), raw.maxPkeys(),
                raw.localCaAckDelay(), raw.physPortCnt());
    }
}
