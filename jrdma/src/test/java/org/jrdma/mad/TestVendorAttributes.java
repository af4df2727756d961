package org.jrdma.mad;

import java.util.List;
import org.jrdma.iba.Mad;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.MadAttribute;

/** Vendor-class attributes made up for tests, as a vendor would declare its own (IBA 16.5). */
public final class TestVendorAttributes {
    /** A vendor OUI for the tests' class 0x30 MADs (Mellanox's). */
    public static final int OUI = 0x0002C9;

    private TestVendorAttributes() {
    }

    /** Bytes of a vendor attribute, with no components jrdma knows. */
    public abstract static class Blob extends IbaStruct implements MadAttribute {
        /** Zeroed storage of the subclass's size. */
        protected Blob() {
        }

        @Override
        public List<Field> fields() {
            return List.of();
        }

        @Override
        public String ibaName() {
            return getClass().getSimpleName();
        }

        @Override
        public long methodMask() {
            return 1L << Mad.METHOD_GET | 1L << Mad.METHOD_SET;
        }

        /** Fills the blob with a pattern seeded by {@code seed}; returns it. */
        public Blob fill(int seed) {
            for (int i = 0; i < size(); i++) {
                buffer()[offset() + i] = (byte) (seed + i * 7);
            }
            return this;
        }
    }

    /** Class 0x09 (no OUI), attribute 0x0010, 16 bytes, Get and Set. */
    public static final class Counters extends Blob {
        /** Zeroed storage. */
        public Counters() {
        }

        @Override
        public int size() {
            return 16;
        }

        @Override
        public int mgmtClass() {
            return Mad.CLASS_VENDOR_RANGE1_START;
        }

        @Override
        public int attributeId() {
            return 0x0010;
        }
    }

    /** Class 0x30 (with OUI), attribute 0x0011, 64 bytes, Get and Set. */
    public static final class Settings extends Blob {
        /** Zeroed storage. */
        public Settings() {
        }

        @Override
        public int size() {
            return 64;
        }

        @Override
        public int mgmtClass() {
            return Mad.CLASS_VENDOR_RANGE2_START;
        }

        @Override
        public int attributeId() {
            return 0x0011;
        }
    }

    /** Class 0x30 (with OUI), attribute 0x0012, 1,200 bytes (six RMPP segments), Get only. */
    public static final class Log extends Blob {
        /** Zeroed storage. */
        public Log() {
        }

        @Override
        public int size() {
            return 1200;
        }

        @Override
        public int mgmtClass() {
            return Mad.CLASS_VENDOR_RANGE2_START;
        }

        @Override
        public int attributeId() {
            return 0x0012;
        }

        @Override
        public long methodMask() {
            return 1L << Mad.METHOD_GET;
        }
    }
}
