package org.jrdma.tools.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.jrdma.RdmaException;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Guid;
import org.jrdma.iba.Mad;
import org.jrdma.iba.smp.SmpPortInfo;
import org.jrdma.iba.wire.Field;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.IbaStructs;
import org.jrdma.iba.wire.MadAttribute;
import org.jrdma.mad.SmpTarget;
import org.jrdma.path.IBPath;
import org.jrdma.tools.CmdError;
import org.jrdma.tools.EndPortTargetOptions;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.HelpFooter;
import org.jrdma.tools.PackageFabricCommand;
import org.jrdma.tools.PathTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ibtool query}: python-rdma's command that issues any Get of any attribute jrdma describes
 * (the generated IBA structures, {@link IbaStructs}) and prints the answer field by field: the
 * METHOD is one of {@code SubnGet}, {@code PerformanceGet}, {@code SubnAdmGet},
 * {@code SubnAdmGetTable}, {@code BMGet}, {@code CommMgtGet}, {@code DevMgtGet}; the ATTRIBUTE a
 * structure of that method's management class that the method applies to, named as jrdma names
 * it ({@code SmpNodeInfo}, {@code PmPortCounters}, {@code SaPathRecord}) or as python-rdma does
 * ({@code SMPNodeInfo}, {@code PMPortCounters}, {@code SAPathRecord}: names compare without
 * case). {@code -f NAME=VALUE} sets a field of the request (numbers decimal or 0x-hex, GUIDs, GIDs,
 * text); for the SA methods each field set is also a component of the ComponentMask.
 * {@code -a N} is the request's AttributeModifier. The TARGET is an end port as python-rdma reads
 * one ({@link PathTarget}); without one, SMPs go to the local port (directed route 0) and GMPs to
 * the local port's LID, and SA queries go to the SA (the local port's SM LID), which is what
 * python-rdma's loopback path for them evidently means.
 *
 * <p>The answer is printed as jrdma's generic dump ({@link IbaStruct#toDottedString()}: the IBA
 * name, then one {@code name.....value} line per field), each record of a GetTable after
 * {@code Reply structure #N}; python-rdma's printer uses libibmad's field names instead. Failures
 * are python-rdma's ({@code E: ...}, status 100). python-rdma's {@link org.jrdma.tools.PythonRdmaOptions}: the SA
 * methods go on {@code --sa-path} with {@code --smkey}; {@code --int-names} changes nothing (the
 * fields are printed by their IBA names already). {@code --json}: {@code {method, attribute,
 * records: [...]}}, each record an object of its fields.
 */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Issue any GET type query for any known attribute (python-rdma): METHOD ATTRIBUTE [TARGET], -f FIELD=VALUE "
                + "sets request fields. METHOD: SubnGet, PerformanceGet, SubnAdmGet, SubnAdmGetTable, BMGet, CommMgtGet, DevMgtGet.")
public final class QueryCommand extends PackageFabricCommand implements HelpFooter {
    /** The methods, by python-rdma's name: the management classes they go to and the IBA method. */
    private static final Map<String, Method> METHODS = Map.of(
            "SubnGet", new Method(List.of(Mad.CLASS_SUBN_LID_ROUTED, Mad.CLASS_SUBN_DIRECTED_ROUTE), Mad.METHOD_GET),
            "PerformanceGet", new Method(List.of(Mad.CLASS_PERF_MGMT), Mad.METHOD_GET),
            "SubnAdmGet", new Method(List.of(Mad.CLASS_SUBN_ADM), Mad.METHOD_GET),
            "SubnAdmGetTable", new Method(List.of(Mad.CLASS_SUBN_ADM), Mad.METHOD_GET_TABLE),
            "BMGet", new Method(List.of(Mad.CLASS_BM), Mad.METHOD_GET),
            "CommMgtGet", new Method(List.of(Mad.CLASS_CM), Mad.METHOD_GET),
            "DevMgtGet", new Method(List.of(Mad.CLASS_DEVICE_MGMT), Mad.METHOD_GET));

    @Option(names = {"-a", "--attribute-id"}, paramLabel = "N", defaultValue = "0",
            description = "the AttributeModifier of the request (python-rdma's name for it)")
    long attributeModifier;

    @Option(names = {"-f", "--field"}, paramLabel = "NAME=VALUE", description = "set the given field in the request MAD (repeatable)")
    List<String> fields = new ArrayList<>();

    @Mixin
    EndPortTargetOptions targetOptions;

    @Parameters(index = "0", paramLabel = "METHOD", description = "SubnGet, PerformanceGet, SubnAdmGet, SubnAdmGetTable, BMGet, CommMgtGet or DevMgtGet")
    String method;

    @Parameters(index = "1", paramLabel = "ATTRIBUTE", description = "a structure jrdma describes, e.g. SmpNodeInfo, PmPortCounters, SaPathRecord")
    String attribute;

    @Parameters(index = "2", arity = "0..1", paramLabel = "TARGET", description = "the end port: LID, GUID, GID, directed route or IBPath(...) specification")
    String target;

    /**
     * The JSON document.
     *
     * @param method    the method as given
     * @param attribute the structure's IBA name
     * @param records   the answer (one record but for SubnAdmGetTable)
     */
    record Json(String method, String attribute, List<IbaStruct> records) {
    }

    @Override
    protected int execute() {
        try {
            Method m = METHODS.get(method);
            if (m == null) {
                throw new CmdError("Invalid method '" + method + "'");
            }
            Request request = request(m);
            PathTarget at = target == null || target.isEmpty() ? null
                    : targetOptions.target(target, 3);
            List<IbaStruct> answer = send(attribute(request.attribute()), request.componentMask(), at);
            if (jsonRequested()) {
                return jsonDocument(new Json(method, request.attribute().ibaName(), answer), ExitCodes.OK);
            }
            if (method.equals("SubnAdmGetTable")) {
                for (int i = 0; i < answer.size(); i++) {
                    out().println("Reply structure #" + i);
                    out().print(answer.get(i).toDottedString().indent(2));
                }
            } else {
                out().print(answer.getFirst().toDottedString());
            }
            return ExitCodes.OK;
        } catch (RdmaException e) {
            throw new CmdError(e);
        }
    }

    /** The request: the attribute with the {@code -f} fields set, and their ComponentMask. */
    private Request request(Method m) {
        Supplier<IbaStruct> factory = IbaStructs.ALL.entrySet().stream()
                .filter(e -> e.getKey().toLowerCase(Locale.ROOT).equals(attribute.toLowerCase(Locale.ROOT)))
                .map(Map.Entry::getValue).findFirst().orElseThrow(() -> new CmdError("Invalid attribute '" + attribute + "'"));
        IbaStruct struct = factory.get();
        if (!allows(m, struct)) {
            throw new CmdError("Invalid attribute '" + attribute + "'");
        }
        long mask = 0;
        for (String assignment : fields) {
            int equals = assignment.indexOf('=');
            if (equals < 0 || assignment.indexOf('=', equals + 1) >= 0) {
                throw new CmdError("Field '" + assignment + "' does not have exactly 1 equals.");
            }
            Field field = field(struct, assignment.substring(0, equals));
            set(struct, field, assignment.substring(equals + 1));
            if (field.maskBit() >= 0) {
                mask |= 1L << field.maskBit();
            }
        }
        return new Request(struct, mask);
    }

    private static Field field(IbaStruct struct, String name) {
        return struct.fields().stream().filter(f -> f.kind() != Field.Kind.RESERVED && f.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new CmdError("Invalid field name '" + name + "' for " + struct.ibaName()));
    }

    private static void set(IbaStruct struct, Field field, String text) {
        byte[] buffer = struct.buffer();
        int at = struct.offset() + field.bitOffset() / 8;
        try {
            switch (field.kind()) {
                case GUID -> Guid.parse(text).writeTo(buffer, at);
                case GID -> System.arraycopy(Gid.parse(text).toBytes(), 0, buffer, at, 16);
                case STRING -> {
                    byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    if (bytes.length > field.bitLength() / 8) {
                        throw new IllegalArgumentException("longer than " + field.bitLength() / 8 + " bytes");
                    }
                    System.arraycopy(bytes, 0, buffer, at, bytes.length);
                }
                default -> field.set(struct, 0, text.startsWith("0x") ? Long.parseUnsignedLong(text.substring(2), 16) : Long.parseLong(text));
            }
        } catch (IllegalArgumentException e) {
            throw new CmdError("Invalid value '" + text + "' for field " + field.name() + " - " + e.getMessage());
        }
    }

    /** {@code struct} as the attribute it is ({@link #request} checked that it is a {@link MadAttribute}). */
    @SuppressWarnings("unchecked")
    private static <T extends IbaStruct & MadAttribute> T attribute(IbaStruct struct) {
        return (T) struct;
    }

    /** Sends the Get and returns its answer. */
    private <T extends IbaStruct & MadAttribute> List<IbaStruct> send(T request, long componentMask, PathTarget at) {
        long modifier = attributeModifier;
        return switch (method) {
            case "SubnGet" -> List.of(smp().get(request, at == null ? new SmpTarget.DirectedRoute(new int[0]) : at.smpTarget(smp(), transactor(), this::saPathAt), modifier));
            case "PerformanceGet" -> List.of(gmp().performanceGet(request, lidOf(at), modifier));
            case "SubnAdmGet" -> List.of(transactor().subnAdmGet(request, componentMask, saPath(at)));
            case "SubnAdmGetTable" -> List.copyOf(transactor().subnAdmGetTable(request, componentMask, modifier, saPath(at)));
            case "BMGet" -> List.of(transactor().bmGet(request, IBPath.builder(null).dlid(lidOf(at)).build(), modifier));
            case "CommMgtGet" -> List.of(transactor().commMgtGet(request, IBPath.builder(null).dlid(lidOf(at)).build(), modifier));
            case "DevMgtGet" -> List.of(transactor().devMgtGet(request, IBPath.builder(null).dlid(lidOf(at)).build(), modifier));
            default -> throw new IllegalStateException(method);
        };
    }

    /** The target's LID (a GUID's resolved on {@link #saPathAt}), or the local port's. */
    private int lidOf(PathTarget at) {
        return at != null ? at.lid(smp(), transactor(), this::saPathAt) : localPortInfo().lid();
    }

    /** The SA MADs' path: {@code --sa-path}'s, else to the target's LID or the local port's SM LID; with {@code --smkey}'s SM_Key. */
    private IBPath saPath(PathTarget at) {
        return python().saPath(engine().transport().endPort(),
                () -> IBPath.builder(null).dlid(at != null ? lidOf(at) : localPortInfo().masterSmLid()).build());
    }

    /** The SA MADs' path: {@code --sa-path}'s, else to {@code lid}; with {@code --smkey}'s SM_Key. */
    private IBPath saPathAt(int lid) {
        return python().saPath(engine().transport().endPort(), () -> IBPath.builder(null).dlid(lid).build());
    }

    private SmpPortInfo localPortInfo() {
        return smp().get(new SmpPortInfo(), new SmpTarget.DirectedRoute(new int[0]), 0);
    }

    /**
     * A method of python-rdma's list.
     *
     * @param classes the management classes its attributes belong to
     * @param iba     the IBA method number, whose bit the attribute's method mask must have
     */
    private record Method(List<Integer> classes, int iba) {
    }

    /**
     * A request ready to send.
     *
     * @param attribute     the attribute with the fields set
     * @param componentMask the SA ComponentMask of those fields
     */
    private record Request(IbaStruct attribute, long componentMask) {
    }

    /**
     * The valid METHODs and ATTRIBUTEs (python-rdma's {@code query_help}): every generated IBA
     * structure that is a MAD attribute one of the methods may ask for.
     */
    @Override
    public String helpFooter() {
        StringBuilder text = new StringBuilder("\nValid METHOD:\n");
        METHODS.keySet().stream().sorted().forEach(name -> text.append("    ").append(name).append("\n"));
        text.append("Valid ATTRIBUTE:\n");
        IbaStructs.ALL.entrySet().stream().filter(e -> METHODS.values().stream().anyMatch(m -> allows(m, e.getValue().get())))
                .map(Map.Entry::getKey).sorted().forEach(name -> text.append("    ").append(name).append("\n"));
        return text.toString();
    }

    private static boolean allows(Method m, IbaStruct struct) {
        return struct instanceof MadAttribute mad && m.classes().contains(mad.mgmtClass()) && (mad.methodMask() & 1L << m.iba()) != 0;
    }
}
