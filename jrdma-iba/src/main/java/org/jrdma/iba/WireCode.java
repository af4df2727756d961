package org.jrdma.iba;

/**
 * One value of an enumerated IBA field, such as NodeInfo:NodeType or PortInfo:PortState: the
 * number on the wire and the text infiniband-diags prints for it. The enums of this package
 * implement it; {@link WireCodes} holds the lookups they share.
 */
public interface WireCode {
    /** The number on the wire. */
    int value();

    /** The text infiniband-diags prints for this value. */
    String text();
}
