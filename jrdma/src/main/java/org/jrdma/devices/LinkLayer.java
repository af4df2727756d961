package org.jrdma.devices;

/**
 * The link layer an RDMA end port runs over, as the kernel reports it in
 * {@code /sys/class/infiniband/<dev>/ports/<n>/link_layer} and verbs in
 * {@code ibv_port_attr.link_layer}: InfiniBand proper, or Ethernet for RoCE (the IBA annex A16/A17
 * transport over Ethernet, soft-RoCE {@code rxe} included).
 */
public enum LinkLayer {
    /** An InfiniBand link: LIDs, a subnet manager, MADs on QP0 and QP1. */
    INFINIBAND("InfiniBand"),
    /** An Ethernet link (RoCE): no LIDs, addressing by GID only. */
    ETHERNET("Ethernet"),
    /** Any other link layer: the kernel writes {@code Unknown} for those. */
    UNKNOWN("Unknown");

    private final String text;

    LinkLayer(String text) {
        this.text = text;
    }

    /** The kernel's text for this link layer, for example {@code InfiniBand}. */
    public String text() {
        return text;
    }

    /** The link layer whose kernel text is {@code text} (exact match), or {@link #UNKNOWN}. */
    public static LinkLayer fromText(String text) {
        for (LinkLayer layer : values()) {
            if (layer.text.equals(text)) {
                return layer;
            }
        }
        return UNKNOWN;
    }
}
