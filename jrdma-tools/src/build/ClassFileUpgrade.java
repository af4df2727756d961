import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Rewrites the class files of a jar that are older than Java 6 (major version below 50) as Java 8
 * class files (major version 52) with the stack maps the split verifier needs, in place; the code
 * itself is unchanged. The JDK's AOT cache ({@code -XX:AOTCacheOutput}) does not store classes
 * that the old type-inferring verifier linked, so an old class is loaded, parsed and verified from
 * the jar on every run; picocli ships Java 5 class files, and ibtool loads about 170 of them on
 * every command.
 *
 * <p>Usage: {@code java ClassFileUpgrade.java JAR}; run by jrdma-tools' build on
 * {@code target/ibtool.jar} after it is shaded.
 */
public final class ClassFileUpgrade {
    /** The first major version verified by type checking (JVMS 4.10.1); 50 may fall back to inference. */
    private static final int TARGET_MAJOR = ClassFile.JAVA_8_VERSION;

    private ClassFileUpgrade() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ClassFileUpgrade JAR");
        }
        Path jar = Path.of(args[0]).toAbsolutePath();
        try (FileSystem fs = FileSystems.newFileSystem(URI.create("jar:" + jar.toUri()), Map.of())) {
            Path root = fs.getPath("/");
            // Stack maps name the common supertypes of merged values: resolve them from the jar itself.
            ClassFile classFile = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
                    ClassHierarchyResolver.defaultResolver().orElse(ClassHierarchyResolver.ofResourceParsing(
                            desc -> open(root.resolve(internalName(desc) + ".class"))))));
            List<Path> classes;
            try (Stream<Path> files = Files.walk(root)) {
                classes = files.filter(p -> p.toString().endsWith(".class")).toList();
            }
            int upgraded = 0;
            for (Path path : classes) {
                byte[] bytes = Files.readAllBytes(path);
                ClassModel model = classFile.parse(bytes);
                if (model.majorVersion() >= ClassFile.JAVA_6_VERSION) {
                    continue;
                }
                byte[] rewritten = classFile.transformClass(model, ClassTransform
                        .transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                        .andThen((builder, element) -> {
                            if (element instanceof ClassFileVersion) {
                                builder.withVersion(TARGET_MAJOR, 0);
                            } else {
                                builder.with(element);
                            }
                        }));
                Files.write(path, rewritten);
                upgraded++;
            }
            System.out.printf("ClassFileUpgrade: %d class files of %s rewritten as version %d%n", upgraded, jar, TARGET_MAJOR);
        }
    }

    /** {@code picocli/CommandLine} for the descriptor {@code Lpicocli/CommandLine;}. */
    private static String internalName(ClassDesc desc) {
        String descriptor = desc.descriptorString();
        return descriptor.substring(1, descriptor.length() - 1);
    }

    private static InputStream open(Path path) {
        try {
            return Files.exists(path) ? Files.newInputStream(path) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
