package org.jrdma;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.lang.foreign.Linker;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package structure of the library, checked on its compiled classes (ArchUnit): no package
 * cycles, and the rule that keeps the root package out of them although both the facade
 * {@link Rdma}, which depends on nearly every package, and the exception base, on which every
 * package depends, live there. See the README's design section.
 */
class ArchitectureTest {
    private static JavaClasses library;

    @BeforeAll
    static void importLibrary() {
        library = new ClassFileImporter().importUrl(Rdma.class.getProtectionDomain().getCodeSource().getLocation());
    }

    @Test
    void importsTheLibrary() {
        if (!library.contain(org.jrdma.verbs.Qp.class) || library.contain(ArchitectureTest.class)) {
            throw new AssertionError("expected jrdma's main classes and nothing else, got " + library.size() + " classes");
        }
    }

    /** Below the root, no package depends on itself through others (verbs and verbs.ffi are two packages). */
    @Test
    void subpackagesAreFreeOfCycles() {
        slices().matching("org.jrdma.(**)").should().beFreeOfCycles().check(library);
    }

    /**
     * The root's exceptions (and Errno) sit below every package: they use the JDK and each other
     * only (not the facade: see the next rule), so no path leads from them back up.
     */
    @Test
    void rootExceptionsDependOnTheJdkOnly() {
        classes().that().resideInAPackage("org.jrdma").and().doNotHaveFullyQualifiedName(Rdma.class.getName())
                .should().onlyDependOnClassesThat().resideInAnyPackage("org.jrdma", "java..")
                .check(library);
    }

    /** The facade sits above every package: nothing in the library calls it. */
    @Test
    void nothingInTheLibraryUsesTheFacade() {
        noClasses().that().doNotHaveFullyQualifiedName(Rdma.class.getName())
                .should().dependOnClassesThat().haveFullyQualifiedName(Rdma.class.getName())
                .check(library);
    }

    /** Native functions are bound only in the {@code ffi} packages. */
    @Test
    void onlyFfiPackagesLink() {
        noClasses().that().resideOutsideOfPackage("..ffi..")
                .should().dependOnClassesThat().belongToAnyOf(Linker.class)
                .check(library);
    }
}
