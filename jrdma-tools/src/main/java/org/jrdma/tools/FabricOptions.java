package org.jrdma.tools;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.jrdma.Rdma;
import org.jrdma.RdmaException;
import org.jrdma.devices.RdmaDevice;
import org.jrdma.iba.Mad;
import org.jrdma.iba.UntrustedText;
import org.jrdma.mad.GmpClient;
import org.jrdma.mad.MadEngine;
import org.jrdma.mad.MadTracer;
import org.jrdma.mad.MadTransactor;
import org.jrdma.mad.MadTransport;
import org.jrdma.mad.SaTransactor;
import org.jrdma.mad.SmpClient;
import org.jrdma.mad.umad.UmadDevice;
import org.jrdma.mad.umad.UmadPortChoice;
import org.jrdma.mad.umad.UmadTransport;
import org.jrdma.path.IBPath;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every MAD-sending command shares: which port to send from (a kernel device with
 * {@code -C}/{@code -P}, or a node of an ibsim simulated fabric with {@code --sim}), and how
 * long to wait for answers.
 */
public final class FabricOptions {
    @Option(names = {"-C", "--Ca"}, paramLabel = "CA", description = "the RDMA device to use (default: the first with an active port)")
    String ca;

    @Option(names = {"-P", "--Port"}, paramLabel = "PORT", description = "the port of the device to use")
    Integer port;

    @Mixin
    SimOptions sim;

    @Option(names = {"-t", "--timeout"}, paramLabel = "MS", defaultValue = "1000", description = "timeout per MAD in milliseconds (default: ${DEFAULT-VALUE})")
    int timeoutMillis;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "3", description = "resends of an unanswered MAD (default: ${DEFAULT-VALUE})")
    int retries;

    @Option(names = {"-y", "--m_key"}, paramLabel = "KEY", converter = MKeyConverter.class,
            description = "the M_Key to put in every SMP, decimal or 0x-hex (default: 0, for a subnet without M_Key protection)")
    long mKey;

    @Option(names = "--trace", description = "print every MAD sent and received, decoded, on standard error")
    boolean trace;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--max-outstanding", paramLabel = "N", defaultValue = "16", description = "MADs in flight at once (default: ${DEFAULT-VALUE})")
    int maxOutstanding;

    /** {@code -s/--sm_port}, where the command leaves it free ({@link CommonOptions}): the SM LID as given, or null. */
    String smPortText;

    /** {@code -o/--outstanding_smps}, where the command leaves it free ({@link CommonOptions}), or null. */
    Integer outstandingSmps;

    /**
     * python-rdma's {@code --smkey}, {@code --sa-path} and {@code --int-names}, where the command
     * leaves their names free ({@link CommonOptions}).
     */
    final PythonRdmaOptions python = new PythonRdmaOptions();

    /**
     * python-rdma's {@code --discovery}, {@code --cache} and {@code --refresh-cache}, on the commands
     * that discover the subnet ({@link DiscoversSubnet}), where they leave the names free ({@link CommonOptions}).
     */
    final DiscoveryOptions discovery = new DiscoveryOptions();

    /** {@code -Y/--pkey-idx} as given, or null. */
    private String pkeyIndexText;

    /**
     * {@code -z/--config FILE}: infiniband-diags' configuration file, whose values ({@link DiagConfig})
     * are the defaults of {@code -C}, {@code -P}, {@code -t} and {@code -y} over those of the default file.
     */
    @Option(names = {"-z", "--config"}, paramLabel = "<config>",
            description = "use config file, default: " + "/etc/infiniband-diags/ibdiag.conf" + " (CA, Port, timeout, m_key, sa_key)")
    java.nio.file.Path configFile;

    /** The configuration files' values, once read ({@link #configuration}), and the {@code -z} file they were read with. */
    private DiagConfig configuration;
    private java.nio.file.Path configurationFile;

    /**
     * The configuration's values: {@code defaults} (the default file's) overridden by
     * {@code -z}'s file, read once for the command line (again only when {@code -z} names another
     * file, a later command of a shell).
     */
    DiagConfig configuration(Supplier<DiagConfig> defaults) {
        if (configuration == null || !Objects.equals(configurationFile, configFile)) {
            DiagConfig config = defaults.get();
            configuration = configFile == null ? config : config.with(DiagConfig.read(configFile));
            configurationFile = configFile;
        }
        return configuration;
    }

    /**
     * The SA's SM_Key from the configuration files ({@code sa_key} of the default file, then of
     * {@code -z}'s), which saquery puts in its requests unless {@code --smkey} is given, as the C
     * tools do; 0 (untrusted) when neither file names one. The files are those the defaults of
     * the other options were read from ({@link #configuration}), not read again.
     */
    long configuredSaKey() {
        Long saKey = configuration(() -> DiagConfig.read(DiagConfig.DEFAULT)).saKey();
        return saKey == null ? 0 : saKey;
    }

    @Option(names = {"-Y", "--pkey-idx"}, paramLabel = "<idx>", description = "P_Key table index for outgoing SA/GMP MADs (default 0; "
            + "a simulated fabric (--sim) has no P_Key and ignores it)")
    void pkeyIndex(String text) {
        pkeyIndexText = text;
    }

    @Option(names = {"-e", "--errors"}, description = "show send and receive errors (jrdma always explains a failed MAD after the C tools' message)")
    boolean showErrors;

    @Option(names = {"-v", "--verbose"}, description = "increase verbosity level (taken for the C tools' command lines; these commands print the same either way)")
    boolean[] verbose = new boolean[0];

    /**
     * Opens the transport these options name, the one place that knows which kinds of port there
     * are: the simulated node of {@code --sim}, else the kernel umad device of the end port
     * {@code -C}/{@code -P} choose as the C tools choose it ({@link UmadPortChoice}: with neither,
     * the first device with an active port), its response timeout {@code -t}.
     *
     * @throws DiagError {@code "Failed to open '<CA>' port '<PORT>'"}, the C tools' failure
     *                    (CA {@code (null)} when not given, PORT 0), then why: no such port, or
     *                    one that refuses the subnet management classes (RoCE)
     */
    MadTransport openTransport() {
        if (sim.requested()) {
            return sim.attach();
        }
        int portNumber = port == null ? 0 : port;
        Duration responseTimeout = timeout();
        List<RdmaDevice> devices = Rdma.getDevices();
        List<String> names = devices.stream().map(RdmaDevice::name).toList();
        UmadPortChoice choice = UmadPortChoice.choose(devices, ca, portNumber).orElseThrow(() -> openFailure(portNumber,
                new RdmaException(names.isEmpty() ? "this machine has no RDMA devices"
                        : ca != null && !names.contains(ca) ? "no RDMA device " + UntrustedText.quote(ca) + " among " + names
                        : "no port that is up among " + names)));
        UmadTransport transport;
        try {
            transport = UmadTransport.open(UmadDevice.find(choice.caName(), choice.port()), responseTimeout);
        } catch (RdmaException e) {
            throw openFailure(portNumber, e);
        }
        try {
            // The C tools' mad_rpc_open_port registers the SMI classes first, so a port without
            // QP0 (RoCE) fails to open for every tool.
            transport.registerClient(Mad.CLASS_SUBN_LID_ROUTED, 1);
            transport.registerClient(Mad.CLASS_SUBN_DIRECTED_ROUTE, 1);
            return transport;
        } catch (RdmaException e) {
            try {
                transport.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw openFailure(portNumber, e);
        }
    }

    /**
     * The C tools' failure to open a port ({@code mad_rpc_open_port}'s warning on standard error,
     * then {@code Failed to open '<CA>' port '<PORT>'}, CA {@code (null)} when not given), with
     * jrdma's reason after them.
     */
    private DiagError openFailure(int portNumber, RdmaException reason) {
        String caText = ca == null ? "(null)" : ca;
        return DiagError.exit("Failed to open '" + caText + "' port '" + portNumber + "'", reason)
                .warn("mad_rpc_open_port", "can't open UMAD port (" + caText + ":" + portNumber + ")");
    }

    /**
     * What makes two commands' engines interchangeable ({@link SharedEngines}): the port these
     * options name and how it is opened (for a kernel port its response timeout), the bound on
     * MADs in flight and the P_Key index of the GMPs; {@code null} with {@code --trace}, whose tracer belongs to one command.
     */
    String sharingKey() {
        if (trace) {
            return null;
        }
        String port = sim.requested() ? "sim " + sim.target() : "umad " + ca + " " + this.port + " " + timeoutMillis;
        return port + " outstanding " + maxOutstanding() + " pkey_index " + pkeyIndex();
    }

    /** MADs in flight at once: {@code -o/--outstanding_smps} if given, else {@code --max-outstanding}. */
    int maxOutstanding() {
        return outstandingSmps != null ? outstandingSmps : maxOutstanding;
    }

    /**
     * The SM LID of {@code -s/--sm_port}, or null without it.
     *
     * @throws DiagError {@code cannot resolve SM destination port <text>}, the C tools' failure, if it is not a LID
     */
    Integer smPortLid() {
        if (smPortText == null) {
            return null;
        }
        try {
            return org.jrdma.iba.Lid.parse(smPortText);
        } catch (IllegalArgumentException e) {
            throw DiagError.exit("cannot resolve SM destination port " + smPortText, e);
        }
    }

    /**
     * The P_Key table index of {@code -Y/--pkey-idx} (0 without it), checked as the C tools check
     * it: an integer (decimal, 0x-hex, 0-octal) in 0..65535.
     *
     * @throws DiagError {@code Invalid P_Key index "<text>".  Requires an integer in the range [0, 65535].}
     */
    private int pkeyIndex() {
        if (pkeyIndexText == null) {
            return 0;
        }
        String text = pkeyIndexText.strip();
        boolean valid = !text.isEmpty() && text.equals(pkeyIndexText.stripTrailing()) && text.matches("[+]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)");
        long index = valid ? CNumbers.strtoul(text) : -1;
        if (index < 0 || index > 0xffff) {
            throw DiagError.exit("Invalid P_Key index \"" + pkeyIndexText + "\".  Requires an integer in the range [0, 65535].");
        }
        return (int) index;
    }

    /**
     * An engine over the transport these options name, with their bound on MADs in flight, its GMP
     * requests at {@code -Y}'s P_Key index ({@link MadEngine#gmpPkeyIndex}), as libibmad addresses
     * them: the umad transport writes the index into the kernel's MAD header; ibsim's has no P_Key.
     */
    MadEngine openEngine() {
        int pkeyIndex = pkeyIndex();
        if (maxOutstanding() < 1) {
            throw new UsageException("--max-outstanding must be at least 1");
        }
        MadEngine engine = new MadEngine(openTransport(), maxOutstanding());
        engine.gmpPkeyIndex(pkeyIndex);
        if (trace) {
            PrintWriter err = command.commandLine().getErr();
            engine.tracer(MadTracer.dump(text -> {
                err.print(text);
                err.flush();
            }));
        }
        return engine;
    }

    /**
     * How long to wait for each answer, {@code -t}.
     *
     * @throws UsageException if it is not at least 1 ms
     */
    Duration timeout() {
        if (timeoutMillis < 1) {
            throw new UsageException("--timeout must be at least 1 ms");
        }
        return Duration.ofMillis(timeoutMillis);
    }

    /**
     * How many times an unanswered MAD is sent again, {@code --retries}.
     *
     * @throws UsageException if it is negative
     */
    int retries() {
        if (retries < 0) {
            throw new UsageException("--retries must be 0 or more");
        }
        return retries;
    }

    /** An SMP client with these options' timeout, retries and M_Key. */
    SmpClient smp(MadEngine engine) {
        return new SmpClient(engine, timeout(), retries(), mKey);
    }

    /** A GMP client with these options' timeout and retries. */
    GmpClient gmp(MadEngine engine) {
        return new GmpClient(engine, timeout(), retries());
    }

    /**
     * A transactor whose SubnGets the subnet administrator answers from its records
     * ({@link SaTransactor}), with these options' timeout and retries, its SA MADs on
     * {@code --sa-path} (else to the SM of the local end port) with {@code --smkey}'s SM_Key.
     *
     * @throws UsageException if the engine's transport does not say which end port it is on (the SA path needs it)
     */
    SaTransactor saTransactor(MadEngine engine) {
        MadTransport transport = engine.transport();
        MadTransactor transactor = new MadTransactor(engine, transport.endPort().orElseThrow(() -> new UsageException(
                "--sa needs the end port the MADs leave from, which " + transport.describe() + " does not say")))
                .withTimeouts(timeout(), retries());
        return new SaTransactor(transactor.withSaPath(python.saPath(transactor.endPort(), transactor::saPath)));
    }

    /**
     * The path of an SA MAD (a PathRecord that resolves a GUID, saquery's queries):
     * {@code --sa-path}'s, else to {@code saLid} (the SM LID the C tools use), with {@code smKey} as
     * its SM_Key.
     */
    IBPath saPath(MadEngine engine, IntSupplier saLid, long smKey) {
        return python.saPath(engine.transport().endPort(), () -> IBPath.builder(null).dlid(saLid.getAsInt()).build()).toBuilder()
                .smKey(smKey).build();
    }

    /** {@link #saPath(MadEngine, IntSupplier, long)} with {@code --smkey}'s SM_Key. */
    IBPath saPath(MadEngine engine, IntSupplier saLid) {
        return saPath(engine, saLid, python.smKey());
    }

    /** A transactor for SA and other GMP requests on explicit paths, with these options' timeout and retries. */
    MadTransactor transactor(MadEngine engine) {
        return new MadTransactor(engine, null).withTimeouts(timeout(), retries());
    }

    /** An SMP client whose SubnGets the SA answers ({@link #saTransactor}), with these options' M_Key. */
    SmpClient saSmp(MadEngine engine) {
        return new SmpClient(saTransactor(engine), mKey);
    }

    /** Reads an M_Key: 64 bits as C's {@code strtoull} with base 0 reads them (decimal, or hex after 0x). */
    static final class MKeyConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            return key(text, "M_Key");
        }

        /**
         * Reads a 64-bit key ({@code what}: M_Key, SM_Key), decimal or 0x-hex.
         *
         * @throws CommandLine.TypeConversionException if it is not such a number (a usage error)
         */
        static long key(String text, String what) {
            boolean hex = text.startsWith("0x") || text.startsWith("0X");
            try {
                return Long.parseUnsignedLong(hex ? text.substring(2) : text, hex ? 16 : 10);
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException(what + " \"" + text + "\" is not a 64-bit number (decimal, or 0x-hex)");
            }
        }
    }
}
