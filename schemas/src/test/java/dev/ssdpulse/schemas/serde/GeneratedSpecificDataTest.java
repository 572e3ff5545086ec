package dev.ssdpulse.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunStarted;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class GeneratedSpecificDataTest {
    private final GeneratedSpecificData data = new GeneratedSpecificData(RunStarted.class);

    @Test
    void resolvesGeneratedTypesOfTheTrustedPackage() {
        assertThat(data.getClass(IoStreamRecord.SCHEMA$)).isEqualTo(IoStreamRecord.class);
        assertThat(data.getClass(IoOp.SCHEMA$)).isEqualTo(IoOp.class);
    }

    @Test
    void doesNotResolveClassesOutsideThePackageOrThatAreNotAvroTypes() {
        Schema notGenerated =
                Schema.createRecord("GeneratedSpecificData", null, "dev.ssdpulse.schemas.serde", false, List.of());
        // Outside the trusted package Avro's own allow-list still applies: trust is not widened.
        Assertions.assertThatThrownBy(() -> data.getClass(notGenerated)).isInstanceOf(SecurityException.class);
        Schema fake = Schema.createRecord("SampleRecordsX", null, "dev.ssdpulse.schemas.avro", false, List.of());
        assertThat(data.getClass(fake)).isNull();
    }

    @Test
    void deepCopiesEveryRecordTypeWhereAvrosDefaultModelRefusesNestedClasses() {
        for (SpecificRecord record : SampleRecords.everyRecordType()) {
            Object copy = data.deepCopy(record.getSchema(), record);
            assertThat(copy).isEqualTo(record).isNotSameAs(record);
        }
    }
}
