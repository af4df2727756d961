package org.jrdma.mad;

import org.jrdma.iba.Mad;

/**
 * The MAD RPCs of the seed's {@code MADTransactor}, each a method of a management class at the
 * class version jrdma speaks (IBA 13.4.5, 14.2.1, 15.2.1, 16.1.1, 16.2.1, 16.3.1, 12.6, 16.5). The
 * vendor RPCs take their class from the attribute.
 */
enum Rpc {
    SUBN_GET("SubnGet", Mad.CLASS_SUBN_LID_ROUTED, 1, Mad.METHOD_GET),
    SUBN_SET("SubnSet", Mad.CLASS_SUBN_LID_ROUTED, 1, Mad.METHOD_SET),
    SUBN_ADM_GET("SubnAdmGet", Mad.CLASS_SUBN_ADM, 2, Mad.METHOD_GET),
    SUBN_ADM_GET_TABLE("SubnAdmGetTable", Mad.CLASS_SUBN_ADM, 2, Mad.METHOD_GET_TABLE),
    SUBN_ADM_GET_MULTI("SubnAdmGetMulti", Mad.CLASS_SUBN_ADM, 2, Mad.METHOD_GET_MULTI),
    SUBN_ADM_SET("SubnAdmSet", Mad.CLASS_SUBN_ADM, 2, Mad.METHOD_SET),
    SUBN_ADM_DELETE("SubnAdmDelete", Mad.CLASS_SUBN_ADM, 2, Mad.METHOD_DELETE),
    PERFORMANCE_GET("PerformanceGet", Mad.CLASS_PERF_MGMT, 1, Mad.METHOD_GET),
    PERFORMANCE_SET("PerformanceSet", Mad.CLASS_PERF_MGMT, 1, Mad.METHOD_SET),
    BM_GET("BMGet", Mad.CLASS_BM, 1, Mad.METHOD_GET),
    BM_SET("BMSet", Mad.CLASS_BM, 1, Mad.METHOD_SET),
    DEV_MGT_GET("DevMgtGet", Mad.CLASS_DEVICE_MGMT, 1, Mad.METHOD_GET),
    DEV_MGT_SET("DevMgtSet", Mad.CLASS_DEVICE_MGMT, 1, Mad.METHOD_SET),
    COMM_MGT_GET("CommMgtGet", Mad.CLASS_CM, 2, Mad.METHOD_GET),
    COMM_MGT_SET("CommMgtSet", Mad.CLASS_CM, 2, Mad.METHOD_SET),
    COMM_MGT_SEND("CommMgtSend", Mad.CLASS_CM, 2, Mad.METHOD_SEND),
    VEND_GET("VendGet", 0, 1, Mad.METHOD_GET),
    VEND_SET("VendSet", 0, 1, Mad.METHOD_SET);

    /** The RPC's name in the seed and IBA, e.g. {@code SubnGet}. */
    final String rpcName;
    /** The management class (LID-routed for the SubnGet/Set, 0 for the vendor RPCs). */
    final int mgmtClass;
    final int classVersion;
    final int method;

    Rpc(String rpcName, int mgmtClass, int classVersion, int method) {
        this.rpcName = rpcName;
        this.mgmtClass = mgmtClass;
        this.classVersion = classVersion;
        this.method = method;
    }

    /** The class version jrdma speaks for {@code mgmtClass}: its RPCs', else 1 (the directed-route SMPs', vendors'). */
    static int classVersion(int mgmtClass) {
        for (Rpc rpc : values()) {
            if (rpc.mgmtClass == mgmtClass) {
                return rpc.classVersion;
            }
        }
        return 1;
    }

    /** True if the RPC is a SubnGet or SubnSet. */
    boolean isSmp() {
        return mgmtClass == Mad.CLASS_SUBN_LID_ROUTED;
    }
}
