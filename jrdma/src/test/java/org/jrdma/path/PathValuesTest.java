package org.jrdma.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import org.jrdma.devices.EndPort;
import org.jrdma.iba.Gid;
import org.jrdma.iba.Mtu;
import org.jrdma.iba.StaticRate;
import org.junit.jupiter.api.Test;

/** {@link PathValues}: its hand-written equality covers every attribute it declares. */
class PathValuesTest {
    /** A value of each attribute type other than its default. */
    private static final Map<Class<?>, Object> OTHER = Map.of(int.class, 7, long.class, 7L, boolean.class, true,
            Integer.class, 7, Gid.class, Fixtures.GID_2, Mtu.class, Mtu.MTU_4096, StaticRate.class,
            StaticRate.RATE_100_GBPS, EndPort.class, Fixtures.PORT_2);

    @Test
    void everyAttributeTakesPartInEquality() throws IllegalAccessException {
        PathValues defaults = new PathValues();
        assertEquals(defaults, defaults.copy());
        assertEquals(defaults.hashCode(), defaults.copy().hashCode());
        int attributes = 0;
        for (Field field : PathValues.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            PathValues changed = defaults.copy();
            field.set(changed, OTHER.get(field.getType()));
            assertNotEquals(defaults, changed, field.getName());
            attributes++;
        }
        assertEquals(29, attributes);
    }
}
