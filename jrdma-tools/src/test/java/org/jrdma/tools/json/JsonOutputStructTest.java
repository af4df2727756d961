package org.jrdma.tools.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.jrdma.iba.cc.CcCaCongestionEntry;
import org.jrdma.iba.cc.CcCaCongestionSetting;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonOutput}'s form of an IBA structure whose component is an array of nested structures
 * (CACongestionSetting's 16 CACongestionEntry): an array of objects, as the README's "JSON output"
 * says arrays are written, not members named {@code caCongestionEntryList[3]}.
 */
class JsonOutputStructTest {
    @Test
    void anArrayOfNestedStructuresIsAnArray() throws Exception {
        CcCaCongestionSetting setting = new CcCaCongestionSetting().controlMap(0x8)
                .caCongestionEntryList(3, new CcCaCongestionEntry().cctiTimer(150).cctiMin(2));
        StringWriter text = new StringWriter();
        JsonOutput.write(new PrintWriter(text), setting, true);
        JsonNode document = new ObjectMapper().readTree(text.toString());
        JsonNode entries = document.get("caCongestionEntryList");
        assertEquals(16, entries.size(), text.toString());
        assertEquals(150, entries.get(3).get("cctiTimer").asInt());
        assertEquals(2, entries.get(3).get("cctiMin").asInt());
        assertEquals(0, entries.get(2).get("cctiTimer").asInt());
        assertFalse(entries.get(3).has("reserved1"), "reserved bits are left out");
        assertFalse(document.has("caCongestionEntryList[3]"), text.toString());
    }
}
