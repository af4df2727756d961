package org.jrdma.mad;

import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.mad.SmpDirectedFormat;
import org.jrdma.iba.mad.SmpFormat;
import org.jrdma.iba.mad.VendorOuiFormat;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.iba.wire.MadDecoder;
import org.jrdma.path.IBDRPath;
import org.jrdma.path.IBPath;

/**
 * One MAD RPC about to be made: the RPC, the management class it goes in, the attribute whose
 * content the request carries, and the header fields that go with it. Checks at construction
 * that the RPC is legal for the attribute (its class and method mask), as the seed does, and
 * builds the request MAD for a path in the class's format (IBA 13.4.2, 14.2.1, 15.2.1, 16.x).
 *
 * @param <T> the attribute's type
 */
record MadCall<T extends IbaStruct & MadAttribute>(Rpc rpc, int mgmtClass, T attribute, long attributeModifier,
        long componentMask, int oui) {
    /** The attribute data of SMPs: 64 bytes, in both formats (IBA 14.2.1). */
    private static final int SMP_DATA_SIZE = 64;

    MadCall {
        if ((attributeModifier & ~0xFFFF_FFFFL) != 0) {
            throw new IllegalArgumentException("attribute modifier 0x" + Long.toHexString(attributeModifier) + " does not fit in 32 bits");
        }
        if ((oui & ~0xFF_FFFF) != 0) {
            throw new IllegalArgumentException("OUI 0x" + Integer.toHexString(oui) + " does not fit in 24 bits");
        }
        if ((attribute.methodMask() >>> rpc.method & 1) == 0) {
            throw new IllegalArgumentException(rpc.rpcName + " is not a legal RPC for " + attribute.ibaName());
        }
        if (!Attributes.belongsTo(attribute, mgmtClass)) {
            throw new IllegalArgumentException(attribute.ibaName() + " is not a " + Mad.className(mgmtClass) + " attribute");
        }
        if (attribute.size() > room(mgmtClass) && rpc.method != Mad.METHOD_GET && !Rmpp.hasRmppHeader(mgmtClass)) {
            throw new IllegalArgumentException(attribute.ibaName() + " (" + attribute.size() + " bytes) does not fit the "
                    + room(mgmtClass) + " bytes of a " + Mad.className(mgmtClass) + " request, and the class has no RMPP");
        }
    }

    /**
     * The call of {@code rpc} about {@code attribute} on {@code path}: SubnGet and SubnSet go
     * directed route on an {@link IBDRPath}, LID-routed otherwise; the vendor RPCs go in the
     * attribute's class, which must be a vendor class, with an OUI in classes 0x30-0x4F only.
     *
     * @throws IllegalArgumentException if the RPC is not legal for the attribute
     */
    static <T extends IbaStruct & MadAttribute> MadCall<T> of(Rpc rpc, T attribute, IBPath path, long attributeModifier,
            long componentMask, int oui) {
        int mgmtClass = rpc.mgmtClass;
        if (rpc.isSmp() && path instanceof IBDRPath) {
            mgmtClass = Mad.CLASS_SUBN_DIRECTED_ROUTE;
        } else if (rpc == Rpc.VEND_GET || rpc == Rpc.VEND_SET) {
            mgmtClass = attribute.mgmtClass();
            if (!Mad.isVendorClass(mgmtClass)) {
                throw new IllegalArgumentException(attribute.ibaName() + " is of class 0x" + Integer.toHexString(mgmtClass)
                        + ", not a vendor class");
            }
            if (mgmtClass < Mad.CLASS_VENDOR_RANGE2_START && oui != 0) {
                throw new IllegalArgumentException("vendor class 0x" + Integer.toHexString(mgmtClass) + " MADs carry no OUI");
            }
        }
        return new MadCall<>(rpc, mgmtClass, attribute, attributeModifier, componentMask, oui);
    }

    /** Where the attribute data starts in MADs of this call's class. */
    int dataOffset() {
        return MadDecoder.dataOffset(mgmtClass);
    }

    /**
     * The request MAD to send on {@code path} (its TID left to the engine): 256 bytes, or for a
     * request other than a Get whose attribute does not fit one MAD (classes with RMPP only), the
     * whole transfer, which the engine sends by RMPP.
     */
    byte[] request(IBPath path) {
        int size = attribute.size();
        boolean whole = size > room(mgmtClass) && rpc.method != Mad.METHOD_GET;
        byte[] mad = new byte[whole ? dataOffset() + size : MadDecoder.MAD_SIZE];
        new MadHeader(mad, 0).baseVersion(Mad.BASE_VERSION).mgmtClass(mgmtClass).classVersion(rpc.classVersion)
                .method(rpc.method).attributeId(attribute.attributeId()).attributeModifier(attributeModifier);
        switch (mgmtClass) {
            case Mad.CLASS_SUBN_LID_ROUTED -> {
                if (path.dlid() == 0) {
                    throw new IllegalArgumentException("A LID-routed SMP needs a DLID: " + path);
                }
                new SmpFormat(mad, 0).mKey(path.mKey());
            }
            case Mad.CLASS_SUBN_DIRECTED_ROUTE -> {
                IBDRPath dr = (IBDRPath) path;
                byte[] route = dr.drPath();
                SmpDirectedFormat smp = new SmpDirectedFormat(mad, 0).hopPointer(0).hopCount(dr.hopCount()).mKey(path.mKey())
                        .drSlid(dr.drSlid()).drDlid(dr.drDlid());
                for (int i = 1; i < route.length; i++) {
                    smp.initialPath(i, route[i] & 0xFF);
                }
            }
            case Mad.CLASS_SUBN_ADM -> {
                SaFormat sa = new SaFormat(mad, 0).smKey(path.smKey()).componentMask(componentMask);
                if (rpc == Rpc.SUBN_ADM_GET_MULTI) {
                    // GetMulti requests travel by RMPP (IBA 15.2.5.20): one segment, First and Last.
                    sa.rmppHeader().rmppVersion(Rmpp.VERSION).rmppType(Rmpp.TYPE_DATA).rmppRespTime(Rmpp.NO_RESP_TIME)
                            .rmppFlags(Rmpp.FLAG_ACTIVE | Rmpp.FLAG_FIRST | Rmpp.FLAG_LAST).data1(1)
                            .data2(Rmpp.SEGMENT_PAYLOAD - (room(mgmtClass) - attribute.size()));
                }
            }
            default -> {
                if (mgmtClass >= Mad.CLASS_VENDOR_RANGE2_START && mgmtClass <= Mad.CLASS_VENDOR_RANGE2_END) {
                    new VendorOuiFormat(mad, 0).oui(oui);
                }
            }
        }
        if (whole || size <= room(mgmtClass)) {
            attribute.pack(mad, dataOffset());
        } else {
            System.arraycopy(attribute.toBytes(), 0, mad, dataOffset(), room(mgmtClass));
        }
        return mad;
    }

    /**
     * The room for attribute data in one MAD of {@code mgmtClass}: 64 bytes in an SMP, the rest of
     * the 256 bytes after the class's header otherwise. A Get of a larger attribute (answered by
     * RMPP) carries the attribute's leading bytes, where its selector components sit.
     */
    static int room(int mgmtClass) {
        return MadAddress.isSmp(mgmtClass) ? SMP_DATA_SIZE : MadDecoder.MAD_SIZE - MadDecoder.dataOffset(mgmtClass);
    }

    /** The call as the messages name it: {@code SubnGet(PortInfo, modifier 0x1)}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(rpc.rpcName).append('(').append(attribute.ibaName());
        if (attributeModifier != 0) {
            s.append(", modifier 0x").append(Long.toHexString(attributeModifier));
        }
        if (mgmtClass == Mad.CLASS_SUBN_ADM) {
            s.append(", mask 0x").append(Long.toHexString(componentMask));
        }
        if (oui != 0) {
            s.append(", OUI 0x").append(Integer.toHexString(oui));
        }
        return s.append(')').toString();
    }
}
