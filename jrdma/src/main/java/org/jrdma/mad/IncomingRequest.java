package org.jrdma.mad;

import java.util.Optional;
import org.jrdma.iba.Mad;
import org.jrdma.iba.mad.MadHeader;
import org.jrdma.iba.mad.SaFormat;
import org.jrdma.iba.wire.DecodedMad;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.path.IBPath;

/**
 * A request another node sent to an agent this end port serves, as
 * {@link MadTransactor#parseRequest} decodes it: the MAD, its common header and attribute, and the
 * path it came on (received semantics: SLID and SQPN are the requester's). Answer it with
 * {@link MadTransactor#sendReply} on {@link #replyPath()}.
 *
 * @param mad     the request as received
 * @param decoded its common header and, where jrdma knows the attribute, the attribute
 * @param path    the path it arrived on
 */
public record IncomingRequest(ReceivedMad mad, DecodedMad decoded, IBPath path) {
    /** The common MAD header (IBA 13.4.2). */
    public MadHeader header() {
        return decoded.header();
    }

    /** The management class. */
    public int mgmtClass() {
        return decoded.header().mgmtClass();
    }

    /** The method (a request: the R bit is clear). */
    public int method() {
        return decoded.header().method();
    }

    /** The AttributeID. */
    public int attributeId() {
        return decoded.header().attributeId();
    }

    /** The AttributeModifier. */
    public long attributeModifier() {
        return decoded.header().attributeModifier();
    }

    /** The SA ComponentMask (IBA 15.2.1.1) of a SubnAdm request, else 0. */
    public long componentMask() {
        return mgmtClass() == Mad.CLASS_SUBN_ADM ? new SaFormat(mad.mad(), 0).componentMask() : 0;
    }

    /** The attribute, when it is one of the IBA structures jrdma knows for the class and AttributeID. */
    public Optional<IbaStruct> attribute() {
        return Optional.ofNullable(decoded.attribute());
    }

    /**
     * The request's attribute data read as {@code type}, for attributes jrdma does not know
     * (vendor classes): as many of its bytes as the request carries, the rest zero.
     *
     * @throws MadException with status 0x000C (unsupported method/attribute) if the request names another attribute
     */
    public <T extends IbaStruct & MadAttribute> T attribute(Class<T> type) {
        T attribute = Attributes.factory(type).get();
        if (attribute.attributeId() != attributeId() || !Attributes.belongsTo(attribute, mgmtClass())) {
            throw new MadException(String.format("the request is for attribute 0x%04x of class 0x%02x, not %s", attributeId(),
                    mgmtClass(), attribute.ibaName()), Mad.STATUS_UNSUP_METHOD_ATTR_COMBO,
                    new MadException.Exchange(mad.mad(), null, path));
        }
        int carried = Math.max(0, Math.min(attribute.size(), mad.length() - decoded.dataOffset()));
        System.arraycopy(mad.mad(), decoded.dataOffset(), attribute.buffer(), attribute.offset(), carried);
        return attribute;
    }

    /** The path to answer on: {@link #path()} reversed for a reply (IBA 13.5.4). */
    public IBPath replyPath() {
        return path.reverse(true);
    }
}
