package org.jrdma.iba.wire;

import java.util.List;
import org.jrdma.iba.mad.MadHeader;

/**
 * A management datagram decoded without knowing in advance what it carries: its common header, the
 * attribute its management class and AttributeID name (a copy, or null when jrdma has no
 * description of that attribute), and for SA GetTable/GetMulti responses every record.
 *
 * @param header      the common MAD header (a copy)
 * @param dataOffset  where the attribute data starts in the MAD, per the class's MAD format
 * @param attribute   the first (or only) attribute, or null if the attribute is unknown or absent
 * @param records     for SA table responses every record, else the attribute alone (or nothing)
 */
public record DecodedMad(MadHeader header, int dataOffset, IbaStruct attribute, List<IbaStruct> records) {
    public DecodedMad {
        records = List.copyOf(records);
    }
}
