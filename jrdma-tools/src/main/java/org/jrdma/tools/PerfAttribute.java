package org.jrdma.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jrdma.iba.pm.PmPortExtendedSpeedsCounters;
import org.jrdma.iba.pm.PmPortFlowCtlCounters;
import org.jrdma.iba.pm.PmPortOpRcvCounters;
import org.jrdma.iba.pm.PmPortRcvConCtrl;
import org.jrdma.iba.pm.PmPortRcvDataSl;
import org.jrdma.iba.pm.PmPortRcvErrorDetails;
import org.jrdma.iba.pm.PmPortSamplesControl;
import org.jrdma.iba.pm.PmPortSlRcvBecn;
import org.jrdma.iba.pm.PmPortSlRcvFecn;
import org.jrdma.iba.pm.PmPortVlOpData;
import org.jrdma.iba.pm.PmPortVlOpPackets;
import org.jrdma.iba.pm.PmPortVlXmitFlowCtlUpdateErrors;
import org.jrdma.iba.pm.PmPortVlXmitTimeCong;
import org.jrdma.iba.pm.PmPortVlXmitWaitCounters;
import org.jrdma.iba.pm.PmPortXmitConCtrl;
import org.jrdma.iba.pm.PmPortXmitDataSl;
import org.jrdma.iba.pm.PmPortXmitDiscardDetails;
import org.jrdma.iba.pm.PmSwPortVlCongestion;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;

/**
 * The PerfMgt attributes perfquery reads with its options other than {@code -x} (IBA 16.1.4 and
 * annexes A10, A13), in the order perfquery tries its options, each with the name perfquery gives
 * it ({@code # <name> counters: ...}, {@code cannot query <name>}) and libibmad's dump of it: its
 * field names ({@code fields.c}) padded to column 34, unsigned fields in decimal, the others in hex
 * of the field's byte width ({@code mad_dump_hex}).
 */
enum PerfAttribute {
    XMIT_DATA_SL("PortXmitDataSL", PmPortXmitDataSl::new, series("XmtDataSL", 16, 32, 32)),
    RCV_DATA_SL("PortRcvDataSL", PmPortRcvDataSl::new, series("RcvDataSL", 16, 32, 32)),
    XMIT_DISCARD_DETAILS("PortXmitDiscardDetails", PmPortXmitDiscardDetails::new, fields(32, 16, "PortInactiveDiscards",
            "PortNeighborMTUDiscards", "PortSwLifetimeLimitDiscards", "PortSwHOQLifetimeLimitDiscards")),
    RCV_ERROR_DETAILS("PortRcvErrorDetails", PmPortRcvErrorDetails::new, fields(32, 16, "PortLocalPhysicalErrors",
            "PortMalformedPktErrors", "PortBufferOverrunErrors", "PortDLIDMappingErrors", "PortVLMappingErrors", "PortLoopingErrors")),
    EXTENDED_SPEEDS("PortExtendedSpeedsCounters", PmPortExtendedSpeedsCounters::new, extendedSpeeds()),
    OP_RCV_COUNTERS("PortOpRcvCounters", PmPortOpRcvCounters::new, fields(32, 32, "PortOpRcvPkts", "PortOpRcvData")),
    FLOW_CTL_COUNTERS("PortFlowCtlCounters", PmPortFlowCtlCounters::new, fields(32, 32, "PortXmitFlowPkts", "PortRcvFlowPkts")),
    VL_OP_PACKETS("PortVLOpPackets", PmPortVlOpPackets::new, series("PortVLOpPackets", 16, 32, 16)),
    VL_OP_DATA("PortVLOpData", PmPortVlOpData::new, series("PortVLOpData", 16, 32, 32)),
    VL_XMIT_FLOW_CTL_ERRORS("PortVLXmitFlowCtlUpdateErrors", PmPortVlXmitFlowCtlUpdateErrors::new,
            series("PortVLXmitFlowCtlUpdateErrors", 16, 32, 2)),
    VL_XMIT_WAIT("PortVLXmitWaitCounters", PmPortVlXmitWaitCounters::new, series("PortVLXmitWait", 16, 32, 16)),
    SW_PORT_VL_CONGESTION("SwPortVLCongestion", PmSwPortVlCongestion::new, series("SWPortVLCongestion", 16, 32, 16)),
    RCV_CON_CTRL("PortRcvConCtrl", PmPortRcvConCtrl::new, fields(32, 32, "PortPktRcvFECN", "PortPktRcvBECN")),
    SL_RCV_FECN("PortSLRcvFECN", PmPortSlRcvFecn::new, series("PortSLRcvFECN", 16, 32, 32)),
    SL_RCV_BECN("PortSLRcvBECN", PmPortSlRcvBecn::new, series("PortSLRcvBECN", 16, 32, 32)),
    XMIT_CON_CTRL("PortXmitConCtrl", PmPortXmitConCtrl::new, fields(32, 32, "PortXmitTimeCong")),
    VL_XMIT_TIME_CONG("PortVLXmitTimeCong", PmPortVlXmitTimeCong::new, series("PortVLXmitTimeCong", 15, 32, 32));

    /** One field of a libibmad dump: its name, IBA bit offset and width, and whether it is dumped in hex. */
    record Field(String name, int bitOffset, int bits, boolean hex) {
    }

    /** The PortSelect and CounterSelect lines every one of these dumps starts with. */
    private static final List<Field> SELECT = List.of(new Field("PortSelect", 8, 8, false), new Field("CounterSelect", 16, 16, true));

    /** PortSamplesControl ({@code -c}), dumped whole by libibmad's {@code mad_dump_portsamples_control}. */
    static final List<Field> SAMPLES_CONTROL = samplesControl();

    private final String label;
    private final Supplier<? extends IbaStruct> type;
    private final List<Field> fields;

    PerfAttribute(String label, Supplier<? extends IbaStruct> type, List<Field> fields) {
        this.label = label;
        this.type = type;
        this.fields = fields;
    }

    /** The name perfquery prints and fails with. */
    String label() {
        return label;
    }

    /** A request for the attribute: PortSelect {@code port}, the rest zero ({@code pma_query_via}). */
    @SuppressWarnings("unchecked")
    <T extends IbaStruct & MadAttribute> T request(int port) {
        T attribute = (T) type.get();
        byte[] bytes = new byte[attribute.size()];
        bytes[1] = (byte) port;
        attribute.unpack(bytes, 0);
        return attribute;
    }

    /** A reset: PortSelect and CounterSelect set, and the byte libibmad puts CounterSelect2 in if the attribute has it. */
    @SuppressWarnings("unchecked")
    <T extends IbaStruct & MadAttribute> T reset(int port, int mask) {
        T attribute = (T) type.get();
        byte[] bytes = new byte[attribute.size()];
        int select = mask == 0 ? -1 : mask;
        bytes[1] = (byte) port;
        bytes[2] = (byte) (select >> 8);
        bytes[3] = (byte) select;
        if (bytes.length > 18) {
            bytes[18] = (byte) (select >>> 16);
        }
        attribute.unpack(bytes, 0);
        return attribute;
    }

    /** libibmad's dump of the attribute's bytes. */
    String dump(byte[] bytes) {
        return dump(bytes, this == EXTENDED_SPEEDS ? fields : concat(SELECT, fields));
    }

    /** {@code mad_dump_fields}: each field's name, a colon and dots to column 34, then its value. */
    static String dump(byte[] bytes, List<Field> fields) {
        StringBuilder out = new StringBuilder();
        for (Field f : fields) {
            long value = bits(bytes, f.bitOffset(), f.bits());
            String text = f.hex() ? hex(value, (f.bits() + 7) / 8) : Long.toUnsignedString(value);
            out.append(f.name()).append(':').append(".".repeat(Math.max(0, 32 - f.name().length()))).append(text).append('\n');
        }
        return out.toString();
    }

    private static String hex(long value, int bytes) {
        return "0x" + String.format("%0" + 2 * bytes + "x", value);
    }

    /** The big-endian bit field at IBA bit offset {@code offset} (bit 0 the most significant of byte 0). */
    static long bits(byte[] bytes, int offset, int width) {
        long value = 0;
        for (int bit = offset; bit < offset + width; bit++) {
            int b = bit / 8 < bytes.length ? bytes[bit / 8] & 0xff : 0;
            value = (value << 1) | ((b >> (7 - bit % 8)) & 1);
        }
        return value;
    }

    private static List<Field> concat(List<Field> a, List<Field> b) {
        List<Field> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Fields {@code name0}.. of {@code bits} each, from bit {@code offset}. */
    private static List<Field> series(String name, int count, int offset, int bits) {
        List<Field> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(new Field(name + i, offset + i * bits, bits, false));
        }
        return list;
    }

    /** Consecutive decimal fields of {@code bits} each from bit {@code offset}. */
    private static List<Field> fields(int offset, int bits, String... names) {
        List<Field> list = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            list.add(new Field(names[i], offset + i * bits, bits, false));
        }
        return list;
    }

    /** {@code mad_dump_port_ext_speeds_counters}: its own 64-bit CounterSelect, then the per-lane counters. */
    private static List<Field> extendedSpeeds() {
        List<Field> list = new ArrayList<>(List.of(new Field("PortSelect", 8, 8, false), new Field("CounterSelect", 64, 64, true),
                new Field("SyncHeaderErrorCounter", 128, 16, false), new Field("UnknownBlockCounter", 144, 16, false)));
        list.addAll(series("ErrorDetectionCounterLane", 12, 160, 16));
        list.addAll(series("FECCorrectableBlockCtrLane", 12, 352, 32));
        list.addAll(series("FECUncorrectableBlockCtrLane", 12, 736, 32));
        return List.copyOf(list);
    }

    private static List<Field> samplesControl() {
        List<Field> list = new ArrayList<>(List.of(new Field("OpCode", 0, 8, true), new Field("PortSelect", 8, 8, false),
                new Field("Tick", 16, 8, true), new Field("CounterWidth", 29, 3, false), new Field("CounterMask0", 34, 3, true),
                new Field("CounterMasks1to9", 37, 27, true), new Field("CounterMasks10to14", 65, 15, true),
                new Field("SampleMechanisms", 80, 8, false), new Field("SampleStatus", 94, 2, false),
                new Field("OptionMask", 96, 64, true), new Field("VendorMask", 160, 64, true), new Field("SampleStart", 224, 32, false),
                new Field("SampleInterval", 256, 32, false), new Field("Tag", 288, 16, true)));
        for (int i = 0; i < 15; i++) {
            list.add(new Field("CounterSelect" + i, 304 + 16 * i, 16, true));
        }
        list.add(new Field("SamplesOnlyOptionMask", 576, 64, true));
        return List.copyOf(list);
    }

    /** A PortSamplesControl request for {@code port}. */
    static PmPortSamplesControl samplesControlRequest(int port) {
        byte[] bytes = new byte[new PmPortSamplesControl().size()];
        bytes[1] = (byte) port;
        return new PmPortSamplesControl().unpack(bytes, 0);
    }
}
