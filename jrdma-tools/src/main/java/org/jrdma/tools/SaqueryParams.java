package org.jrdma.tools;

import static org.jrdma.tools.CNumbers.strtoul;

import java.util.function.Function;
import java.util.regex.Pattern;
import org.jrdma.iba.Gid;
import picocli.CommandLine.Option;

/**
 * saquery's {@code query_params}: the PathRecord and MCMemberRecord components its options select
 * ({@code --slid}, {@code --sgid}, {@code --mtu} ...), read as saquery reads them (C's
 * {@code strtoul} with base 0, truncated to the C variable's width; GIDs in IPv6 form, a GID that
 * is not one a usage error). An option not given keeps saquery's default (0, or -1 for those where
 * 0 is a value), and a component is selected when its value differs from the default in the
 * record's field width, as saquery's {@code CHECK_AND_SET_VAL} decides.
 */
final class SaqueryParams {
    /** What C's {@code strtoul} converts: optional blanks and sign, then a digit (a {@code 0x} alone converts the 0). */
    private static final Pattern NUMBER = Pattern.compile("^\\s*[+-]?[0-9].*", Pattern.DOTALL);

    long serviceId;
    byte[] sgid = new byte[Gid.BYTES];
    byte[] dgid = new byte[Gid.BYTES];
    byte[] gid = new byte[Gid.BYTES];
    byte[] mgid = new byte[Gid.BYTES];
    int slid;
    int dlid;
    int mlid;
    long flowLabel;
    long hopLimit = -1;
    int tclass;
    long reversible = -1;
    long numbPath = -1;
    int pkey;
    long qosClass = -1;
    long sl = -1;
    int mtu;
    int rate;
    int pktLife;
    long qkey;
    int scope;
    int joinState;
    long proxyJoin = -1;
    private String pkeyText;
    private String qkeyText;

    @Option(names = "--slid", paramLabel = "<lid>", description = "Source LID (PathRecord)")
    void slid(String text) {
        slid = (int) strtoul(text) & 0xffff;
    }

    @Option(names = "--dlid", paramLabel = "<lid>", description = "Destination LID (PathRecord)")
    void dlid(String text) {
        dlid = (int) strtoul(text) & 0xffff;
    }

    @Option(names = "--mlid", paramLabel = "<lid>", description = "Multicast LID (MCMemberRecord)")
    void mlid(String text) {
        mlid = (int) strtoul(text) & 0xffff;
    }

    @Option(names = "--sgid", paramLabel = "<gid>", description = "Source GID (IPv6 format) (PathRecord)")
    void sgid(String text) {
        sgid = gidBytes(text);
    }

    @Option(names = "--dgid", paramLabel = "<gid>", description = "Destination GID (IPv6 format) (PathRecord)")
    void dgid(String text) {
        dgid = gidBytes(text);
    }

    @Option(names = "--gid", paramLabel = "<gid>", description = "Port GID (MCMemberRecord)")
    void gid(String text) {
        gid = gidBytes(text);
    }

    @Option(names = "--mgid", paramLabel = "<gid>", description = "Multicast GID (MCMemberRecord)")
    void mgid(String text) {
        mgid = gidBytes(text);
    }

    @Option(names = {"-r", "--reversible"}, paramLabel = "<val>", description = "Reversible path (PathRecord)")
    void reversible(String text) {
        reversible = strtoul(text);
    }

    @Option(names = {"-n", "--numb_path"}, paramLabel = "<val>", description = "Number of paths (PathRecord)")
    void numbPath(String text) {
        numbPath = strtoul(text);
    }

    @Option(names = "--pkey", paramLabel = "<val>", description = "P_Key (PathRecord, MCMemberRecord)")
    void pkey(String text) {
        pkeyText = text;
    }

    @Option(names = {"-Q", "--qos_class"}, paramLabel = "<val>", description = "QoS Class (PathRecord)")
    void qosClass(String text) {
        qosClass = strtoul(text);
    }

    @Option(names = "--sl", paramLabel = "<val>", description = "Service level (PathRecord, MCMemberRecord)")
    void sl(String text) {
        sl = strtoul(text);
    }

    @Option(names = {"-M", "--mtu"}, paramLabel = "<val>", description = "MTU and selector (PathRecord, MCMemberRecord)")
    void mtu(String text) {
        mtu = (int) strtoul(text) & 0xff;
    }

    @Option(names = {"-R", "--rate"}, paramLabel = "<val>", description = "Rate and selector (PathRecord, MCMemberRecord)")
    void rate(String text) {
        rate = (int) strtoul(text) & 0xff;
    }

    @Option(names = "--pkt_lifetime", paramLabel = "<val>", description = "Packet lifetime and selector (PathRecord, MCMemberRecord)")
    void pktLife(String text) {
        pktLife = (int) strtoul(text) & 0xff;
    }

    @Option(names = {"-q", "--qkey"}, paramLabel = "<val>", description = "Q_Key (MCMemberRecord)")
    void qkey(String text) {
        qkeyText = text;
    }

    @Option(names = {"-T", "--tclass"}, paramLabel = "<val>", description = "Traffic Class (PathRecord, MCMemberRecord)")
    void tclass(String text) {
        tclass = (int) strtoul(text) & 0xff;
    }

    @Option(names = {"-F", "--flow_label"}, paramLabel = "<val>", description = "Flow Label (PathRecord, MCMemberRecord)")
    void flowLabel(String text) {
        flowLabel = strtoul(text) & 0xffff_ffffL;
    }

    @Option(names = {"-H", "--hop_limit"}, paramLabel = "<val>", description = "Hop limit (PathRecord, MCMemberRecord)")
    void hopLimit(String text) {
        hopLimit = strtoul(text);
    }

    @Option(names = "--scope", paramLabel = "<val>", description = "Scope (MCMemberRecord)")
    void scope(String text) {
        scope = (int) strtoul(text) & 0xff;
    }

    @Option(names = {"-J", "--join_state"}, paramLabel = "<val>", description = "Join state (MCMemberRecord)")
    void joinState(String text) {
        joinState = (int) strtoul(text) & 0xff;
    }

    @Option(names = {"-X", "--proxy_join"}, paramLabel = "<val>", description = "Proxy join (MCMemberRecord)")
    void proxyJoin(String text) {
        proxyJoin = strtoul(text);
    }

    @Option(names = "--service_id", paramLabel = "<val>", description = "ServiceID (PathRecord)")
    void serviceId(String text) {
        serviceId = strtoul(text);
    }

    /** C's {@code strtoul(text, &end, 0)} where saquery takes {@code end == text} for "none given": -1 then. */
    static long strtoulOrNone(String text) {
        return NUMBER.matcher(text).matches() ? strtoul(text) : -1;
    }

    /**
     * A GID in IPv6 form, as {@code inet_pton(AF_INET6)} reads it.
     *
     * @throws UsageException if it is not one (saquery prints its usage)
     */
    static byte[] gidBytes(String text) {
        try {
            return Gid.parse(text).toBytes();
        } catch (IllegalArgumentException e) {
            throw new UsageException(null, "\"" + text + "\" is not a GID in IPv6 form: " + e.getMessage());
        }
    }

    /** Reads {@code --pkey} and {@code --qkey}, prompting for those not given as numbers ({@link #secret}). */
    void readKeys(Function<String, String> prompt) {
        if (pkeyText != null) {
            pkey = (int) strtoul(secret(pkeyText, "P_Key", prompt)) & 0xffff;
        }
        if (qkeyText != null) {
            qkey = strtoul(secret(qkeyText, "Q_Key", prompt)) & 0xffff_ffffL;
        }
    }

    /**
     * A key as saquery reads it: a value not starting with a hex digit makes it prompt for the key
     * ({@code getpass}); {@code prompt} asks with {@code <what>: } and returns the line typed.
     */
    static String secret(String text, String what, Function<String, String> prompt) {
        return !text.isEmpty() && Character.digit(text.charAt(0), 16) >= 0 ? text : prompt.apply(what);
    }
}
