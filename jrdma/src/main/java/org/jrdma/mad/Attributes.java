package org.jrdma.mad;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jrdma.iba.Mad;
import org.jrdma.iba.wire.IbaStruct;
import org.jrdma.iba.wire.IbaStructs;
import org.jrdma.iba.wire.MadAttribute;

/**
 * New zeroed instances of attribute classes, made through their public no-argument constructor
 * (every generated IBA structure has one), looked up once per class.
 */
final class Attributes {
    private static final ClassValue<MethodHandle> CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            try {
                return MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class));
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException(type.getName() + " has no public no-argument constructor", e);
            }
        }
    };

    /**
     * The structure class jrdma knows for a class and AttributeID ({@code class << 16 | id}), or
     * {@code Void.class} for none: looked up once, not by making an instance for every MAD.
     */
    private static final Map<Integer, Class<?>> KNOWN = new ConcurrentHashMap<>();

    private Attributes() {
    }

    /** A factory of zeroed instances of {@code type}. */
    static <T extends IbaStruct> Supplier<T> factory(Class<T> type) {
        MethodHandle constructor = CONSTRUCTORS.get(type);
        return () -> {
            try {
                return type.cast(constructor.invoke());
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("constructing " + type.getName() + " failed", t);
            }
        };
    }

    /**
     * True if {@code attribute} is the attribute its AttributeID names in {@code mgmtClass}: the
     * structure jrdma knows for them (both SMP classes alike, ClassPortInfo in every GS class),
     * or, for attributes jrdma does not know (vendor ones), an attribute declaring that class.
     */
    static boolean belongsTo(MadAttribute attribute, int mgmtClass) {
        int checked = mgmtClass == Mad.CLASS_SUBN_DIRECTED_ROUTE ? Mad.CLASS_SUBN_LID_ROUTED : mgmtClass;
        Class<?> known = KNOWN.computeIfAbsent((checked & 0xFF) << 16 | attribute.attributeId() & 0xFFFF, key -> {
            IbaStruct struct = IbaStructs.forAttribute(key >>> 16, key & 0xFFFF);
            return struct == null ? Void.class : struct.getClass();
        });
        return known != Void.class ? known == attribute.getClass() : attribute.mgmtClass() == checked;
    }

    /** A factory of zeroed instances of the class of {@code attribute}. */
    @SuppressWarnings("unchecked")
    static <T extends IbaStruct> Supplier<T> factoryOf(T attribute) {
        return factory((Class<T>) attribute.getClass());
    }

    /** {@code attribute} with the bytes of {@code value} (an attribute of the same size) copied in; returned for chaining. */
    static <T extends IbaStruct> T into(T attribute, IbaStruct value) {
        attribute.unpack(value.buffer(), value.offset());
        return attribute;
    }
}
