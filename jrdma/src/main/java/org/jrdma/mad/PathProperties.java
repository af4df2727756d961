package org.jrdma.mad;

import java.util.Objects;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.jrdma.iba.sa.SaPathRecord;

/**
 * Extra PathRecord components a path query asks the subnet administrator for (IBA 15.2.5.16),
 * python-rdma's {@code resolve_path(..., properties={'PKey': ..., 'SL': ...})}: each one given is
 * set in the query and its bit in the ComponentMask; the others are left to the SA. MTU, rate and
 * packet lifetime take a {@link Selector} saying how the SA's value may compare with the one
 * given.
 *
 * <pre>{@code
 * PathProperties props = PathProperties.builder().pkey(Iba.DEFAULT_PKEY).sl(0)
 *         .mtu(Selector.EXACTLY, Mtu.MTU_2048).build();
 * IBPath path = PathResolver.resolvePath(mt, IBPath.builder(endPort).dgid(dgid).build(), true, props);
 * }</pre>
 *
 * @param pkey            the P_Key, -1 when not given
 * @param sl              the service level, -1 when not given
 * @param mtuSelector     how the path MTU compares with {@code mtu}, null when not given
 * @param mtu             the MTU the selector compares with, null when not given
 * @param rateSelector    how the path's rate compares with {@code rate}, null when not given
 * @param rate            the rate the selector compares with, null when not given
 * @param lifeSelector    how the packet lifetime compares with {@code packetLifeTime}, null when not given
 * @param packetLifeTime  the packet lifetime exponent (4.096 µs × 2^n), -1 when not given
 * @param trafficClass    the GRH traffic class, -1 when not given
 * @param flowLabel       the GRH flow label, -1 when not given
 * @param hopLimit        the GRH hop limit, -1 when not given
 */
public record PathProperties(int pkey, int sl, Selector mtuSelector, Mtu mtu, Selector rateSelector, StaticRate rate,
        Selector lifeSelector, int packetLifeTime, int trafficClass, int flowLabel, int hopLimit) {
    /** No extra component: the query has only the path's addresses (and Reversible). */
    public static final PathProperties NONE = builder().build();

    /** How a PathRecord's MTU, rate or packet lifetime may compare with the value asked (IBA 15.2.5.16, the *Selector fields). */
    public enum Selector {
        /** Greater than the value given. */
        GREATER_THAN,
        /** Less than the value given. */
        LESS_THAN,
        /** Exactly the value given. */
        EXACTLY,
        /** The largest available (the value given is ignored). */
        LARGEST;

        /** The selector's 2-bit code in the PathRecord. */
        public int value() {
            return ordinal();
        }
    }

    /**
     * @throws IllegalArgumentException if a value is out of its field's range, or a selector is
     *                                  given without its value or the reverse
     */
    public PathProperties {
        optional("P_Key", pkey, 16);
        optional("SL", sl, 4);
        optional("PacketLifeTime", packetLifeTime, 6);
        optional("TClass", trafficClass, 8);
        optional("FlowLabel", flowLabel, 20);
        optional("HopLimit", hopLimit, 8);
        if ((mtuSelector == null) != (mtu == null) || (rateSelector == null) != (rate == null)
                || (lifeSelector == null) != (packetLifeTime < 0)) {
            throw new IllegalArgumentException("a selector and its value go together: MTU " + mtuSelector + " " + mtu
                    + ", rate " + rateSelector + " " + rate + ", packet lifetime " + lifeSelector + " " + packetLifeTime);
        }
    }

    /** A builder with no component given. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Sets the components given in {@code query}.
     *
     * @return their ComponentMask bits
     */
    long applyTo(SaPathRecord query) {
        long mask = 0;
        if (pkey >= 0) {
            query.pKey(pkey);
            mask |= SaPathRecord.P_KEY_COMPONENT_MASK;
        }
        if (sl >= 0) {
            query.sl(sl);
            mask |= SaPathRecord.SL_COMPONENT_MASK;
        }
        if (mtu != null) {
            query.mtuSelector(mtuSelector.value()).mtu(mtu.value());
            mask |= SaPathRecord.MTU_SELECTOR_COMPONENT_MASK | SaPathRecord.MTU_COMPONENT_MASK;
        }
        if (rate != null) {
            query.rateSelector(rateSelector.value()).rate(rate.value());
            mask |= SaPathRecord.RATE_SELECTOR_COMPONENT_MASK | SaPathRecord.RATE_COMPONENT_MASK;
        }
        if (packetLifeTime >= 0) {
            query.packetLifeTimeSelector(lifeSelector.value()).packetLifeTime(packetLifeTime);
            mask |= SaPathRecord.PACKET_LIFE_TIME_SELECTOR_COMPONENT_MASK | SaPathRecord.PACKET_LIFE_TIME_COMPONENT_MASK;
        }
        if (trafficClass >= 0) {
            query.tClass(trafficClass);
            mask |= SaPathRecord.T_CLASS_COMPONENT_MASK;
        }
        if (flowLabel >= 0) {
            query.flowLabel(flowLabel);
            mask |= SaPathRecord.FLOW_LABEL_COMPONENT_MASK;
        }
        if (hopLimit >= 0) {
            query.hopLimit(hopLimit);
            mask |= SaPathRecord.HOP_LIMIT_COMPONENT_MASK;
        }
        return mask;
    }

    private static void optional(String name, int value, int bits) {
        if (value != -1 && (value < 0 || value >>> bits != 0)) {
            throw new IllegalArgumentException(name + " " + value + " is not -1 (not given) nor an unsigned " + bits + "-bit value");
        }
    }

    /** Sets the components one by one; those not set stay to the SA. */
    public static final class Builder {
        private int pkey = -1;
        private int sl = -1;
        private Selector mtuSelector;
        private Mtu mtu;
        private Selector rateSelector;
        private StaticRate rate;
        private Selector lifeSelector;
        private int packetLifeTime = -1;
        private int trafficClass = -1;
        private int flowLabel = -1;
        private int hopLimit = -1;

        private Builder() {
        }

        /** The P_Key (the seed's {@code 'PKey'}), full or limited membership bit included. */
        public Builder pkey(int pkey) {
            this.pkey = pkey;
            return this;
        }

        /** The service level, 0 to 15 (the seed's {@code 'SL'}). */
        public Builder sl(int sl) {
            this.sl = sl;
            return this;
        }

        /** The path MTU: {@code selector} compared with {@code mtu} (the seed's {@code 'MTUSelector'}, {@code 'MTU'}). */
        public Builder mtu(Selector selector, Mtu mtu) {
            this.mtuSelector = Objects.requireNonNull(selector, "selector");
            this.mtu = Objects.requireNonNull(mtu, "mtu");
            return this;
        }

        /** The rate: {@code selector} compared with {@code rate} (the seed's {@code 'rateSelector'}, {@code 'rate'}). */
        public Builder rate(Selector selector, StaticRate rate) {
            this.rateSelector = Objects.requireNonNull(selector, "selector");
            this.rate = Objects.requireNonNull(rate, "rate");
            return this;
        }

        /** The packet lifetime exponent, 0 to 63: {@code selector} compared with it (the seed's {@code 'packetLifeTime'}). */
        public Builder packetLifeTime(Selector selector, int packetLifeTime) {
            this.lifeSelector = Objects.requireNonNull(selector, "selector");
            this.packetLifeTime = packetLifeTime;
            return this;
        }

        /** The GRH traffic class, 0 to 255 (the seed's {@code 'TClass'}). */
        public Builder trafficClass(int trafficClass) {
            this.trafficClass = trafficClass;
            return this;
        }

        /** The GRH flow label, 20 bits (the seed's {@code 'flowLabel'}). */
        public Builder flowLabel(int flowLabel) {
            this.flowLabel = flowLabel;
            return this;
        }

        /** The GRH hop limit, 0 to 255 (the seed's {@code 'hopLimit'}). */
        public Builder hopLimit(int hopLimit) {
            this.hopLimit = hopLimit;
            return this;
        }

        /**
         * The properties set.
         *
         * @throws IllegalArgumentException if a value is out of its field's range
         */
        public PathProperties build() {
            return new PathProperties(pkey, sl, mtuSelector, mtu, rateSelector, rate, lifeSelector, packetLifeTime,
                    trafficClass, flowLabel, hopLimit);
        }
    }
}
