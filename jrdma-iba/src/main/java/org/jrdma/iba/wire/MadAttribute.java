package org.jrdma.iba.wire;

/**
 * A MAD attribute (IBA 13.4.8): the payload a MAD's AttributeID names within its management class,
 * such as SMP NodeInfo or PM PortCounters.
 */
public interface MadAttribute {
    /** The management class (IBA 13.4.4) this attribute belongs to. */
    int mgmtClass();

    /** The attribute ID carried in the common MAD header. */
    int attributeId();

    /** The request methods allowed on this attribute: bit N set for method N (e.g. bit 1 for Get). */
    long methodMask();
}
