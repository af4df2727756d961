package org.jrdma;

import java.util.Objects;

/**
 * No RDMA device or end port matches what was asked for: no device of that name or node GUID, no
 * end port of that number, port GUID or GID, or no RDMA device at all; python-rdma raises
 * {@code rdma.RDMAError} with "RDMA device ... not found" for these. The message names what was
 * asked for and what is present. A selector that is malformed, rather than unmatched, is an
 * {@link IllegalArgumentException}.
 */
public final class NoSuchDeviceException extends RdmaException {
    private static final long serialVersionUID = 1L;

    private final String selector;

    /**
     * Nothing matched {@code selector} (null when the default device was asked for), as
     * {@code message} explains.
     */
    public NoSuchDeviceException(String selector, String message) {
        super(Objects.requireNonNull(message, "message"));
        this.selector = selector;
    }

    /** What was asked for: a device name, GUID, GID or {@code device/port}; null for the default. */
    public String selector() {
        return selector;
    }
}
