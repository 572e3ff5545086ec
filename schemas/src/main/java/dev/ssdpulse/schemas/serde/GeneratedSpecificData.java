package dev.ssdpulse.schemas.serde;

import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * A {@link SpecificData} that resolves the generated classes of one package without Avro 1.12.2's class
 * allow-list.
 *
 * <p>Why: since 1.12.2 Avro loads classes named in schemas only if they are trusted (system property
 * {@code org.apache.avro.SERIALIZABLE_PACKAGES}, read once at class initialization, or a process-global
 * validator). Without that, every {@code SpecificDatumReader} of a generated class fails with
 * "Forbidden ... is not trusted". Rather than mutate process-wide state, this model trusts exactly the
 * package of the root class the caller named, and accepts only classes there that really are generated
 * Avro types (SpecificRecord, enum or fixed), loaded without initialization first.
 */
public final class GeneratedSpecificData extends SpecificData {
    private final String trustedPackagePrefix;
    private final ClassLoader loader;
    private final ConcurrentHashMap<String, Class<?>> classes = new ConcurrentHashMap<>();

    /** Trusts the generated types in the package of {@code rootType}. */
    public GeneratedSpecificData(Class<?> rootType) {
        super(rootType.getClassLoader());
        this.trustedPackagePrefix = rootType.getPackageName() + ".";
        this.loader = rootType.getClassLoader();
        classes.put(rootType.getName(), rootType);
        // the generated classes map timestamp logical types to java.time.Instant; a union branch (a nullable
        // timestamp) is converted by the model, not by the record's own conversion table
        addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        addLogicalTypeConversion(new TimeConversions.TimestampMicrosConversion());
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class getClass(Schema schema) {
        Schema.Type type = schema.getType();
        if ((type == Schema.Type.RECORD || type == Schema.Type.ENUM || type == Schema.Type.FIXED)
                && schema.getFullName().startsWith(trustedPackagePrefix)) {
            Class<?> cached = classes.get(schema.getFullName());
            if (cached != null) {
                return cached;
            }
            Class<?> loaded = load(schema);
            if (loaded != null) {
                classes.put(schema.getFullName(), loaded);
                return loaded;
            }
        }
        return super.getClass(schema);
    }

    private Class<?> load(Schema schema) {
        try {
            Class<?> c = Class.forName(getClassName(schema), false, loader);
            boolean generated = switch (schema.getType()) {
                case RECORD -> SpecificRecord.class.isAssignableFrom(c);
                case ENUM -> c.isEnum();
                default -> GenericFixed.class.isAssignableFrom(c);
            };
            return generated ? c : null;
        } catch (ClassNotFoundException e) {
            return null;
        }
    }
}
