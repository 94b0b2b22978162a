/* graph_ops.h — the tables of the kernel graph, as X-macro lists read by the
 * frontend (field names, validation), the IR printer, the interpreter and the
 * passes. One row per entry; several files include this header with
 * different X macros. Rows of one class are contiguous so a class test is a
 * range check (see op_is_* in graph.h).
 *
 * GRAPH_OPS rows: X(enum, "json name", class, "operand fields", "attribute
 * fields"). Field lists are space-separated JSON keys of the op's node
 * object (besides the common keys "name", "op", "type", "index" that every
 * node may carry). Operand fields name values; attribute fields hold data.
 * The operand layout of Op.args, per op:
 *   read          [memory, dyn_vals...]          (dyn vals: mapping_dynamic_vals)
 *   write         [register, memory, dyn_vals...]
 *   atomic_add    [register (lhs), memory (rhs), dyn_vals...]  (as write)
 *   atomic_min    [register (lhs), memory (rhs), dyn_vals...]  (as write)
 *   scatter_add   [register_src, register_idx, memory]
 *   allocate      []  (its result is a workgroup-local memory value)
 *   mma           [lhs, rhs, acc]
 *   scaled_mma    [lhs, lhs_scale, rhs, rhs_scale, acc]  (OCP MX: e8m0 scale per 32 k)
 *   iterate       [init_args..., implicit_captures...]  (Op.ninit init args)
 *   get_result    [value]
 *   output        [values...]
 *   conditional   [else_return..., condition, implicit_captures...]  (Op.ninit else values;
 *                 no condition slot when it is an expression, Op.expr)
 *   set_symbol    [register]
 *   shared_memory_barrier, workgroup_barrier, memory_counter_wait_barrier  []  (op_is_barrier)
 *   memory_counter_wait, set_wave_prio, scheduling_barrier,
 *   scheduling_group_barrier  []  (op_is_hint: no effect on values)
 *   cumsum        [arg]
 *   unary, cast, bitcast, broadcast, permute  [arg]
 *   binary, compare                  [lhs, rhs]
 *   select        [cond, if_true, if_false]
 *   sum/max/min   [args..., init]  (init present iff Op.has_init)
 *   apply_expr    [registers...]
 *   extract, extract_slice           [register]
 *   topk          [arg]  (two results: the values, their i32 indices)
 *   register, scalar, self_index     []
 * "arg" of a reduction and "register" of apply_expr accept one name or a
 * list of names, so they are listed as attributes and read specially.
 */
#ifndef WAVECC_GRAPH_OPS_H
#define WAVECC_GRAPH_OPS_H

/* Op classes, in the order their rows appear in GRAPH_OPS. */
#define OP_CLASSES(X) \
	X(OPC_SOURCE, "source")   /* register, scalar, self_index: no value operands */ \
	X(OPC_MEMORY, "memory")   /* read, write, atomic_add, atomic_min, scatter_add, allocate */ \
	X(OPC_MMA, "mma")         /* mma, scaled_mma */ \
	X(OPC_CONTROL, "control") /* iterate, get_result, output, conditional, set_symbol, barriers */ \
	X(OPC_UNARY, "unary")     /* elementwise, one operand, same type */ \
	X(OPC_BINARY, "binary")   /* elementwise, two operands, broadcasting */ \
	X(OPC_COMPARE, "compare") /* elementwise, two operands -> i1 */ \
	X(OPC_SELECT, "select")   /* select */ \
	X(OPC_CAST, "cast")       /* cast, bitcast */ \
	X(OPC_SHAPE, "shape")     /* broadcast, permute */ \
	X(OPC_REDUCE, "reduce")   /* sum, max, min */ \
	X(OPC_SCAN, "scan")       /* cumsum */ \
	X(OPC_INDEX, "index")     /* apply_expr */ \
	X(OPC_EXTRACT, "extract") /* extract, extract_slice */ \
	X(OPC_TOPK, "topk")       /* topk */

/*  X(enum,            json name,     class,       operands,               attributes) */
#define GRAPH_OPS(X) \
	X(OP_REGISTER, "register", OPC_SOURCE, "", "shape dtype value") \
	X(OP_SCALAR, "scalar", OPC_SOURCE, "", "value dtype") \
	X(OP_SELF_INDEX, "self_index", OPC_SOURCE, "", "dim dtype elements_per_thread") \
	X(OP_READ, "read", OPC_MEMORY, "memory", "elements_per_thread mapping mapping_dynamic_vals volatile memory_order") \
	X(OP_WRITE, "write", OPC_MEMORY, "register memory", \
		"elements_per_thread mapping mapping_dynamic_vals volatile memory_order") \
	X(OP_ATOMIC_ADD, "atomic_add", OPC_MEMORY, "lhs rhs", \
		"elements_per_thread mapping mapping_dynamic_vals") \
	X(OP_ATOMIC_MIN, "atomic_min", OPC_MEMORY, "lhs rhs", \
		"elements_per_thread mapping mapping_dynamic_vals") \
	X(OP_SCATTER_ADD, "scatter_add", OPC_MEMORY, "register_src register_idx memory", \
		"dim mapping elements_per_thread") \
	X(OP_ALLOCATE, "allocate", OPC_MEMORY, "", "shape distributed_shape dtype address_space padding") \
	X(OP_MMA, "mma", OPC_MMA, "lhs rhs acc", "mma_type") \
	X(OP_SCALED_MMA, "scaled_mma", OPC_MMA, "lhs lhs_scale rhs rhs_scale acc", "mma_type") \
	X(OP_ITERATE, "iterate", OPC_CONTROL, "", "axis init_args iter_args body implicit_captures start condition max_trips") \
	X(OP_GET_RESULT, "get_result", OPC_CONTROL, "value", "res_idx") \
	X(OP_OUTPUT, "output", OPC_CONTROL, "", "values") \
	X(OP_CONDITIONAL, "conditional", OPC_CONTROL, "", \
		"condition else_return iter_args body implicit_captures") \
	X(OP_SET_SYMBOL, "set_symbol", OPC_CONTROL, "register", "symbol") \
	X(OP_SHARED_MEMORY_BARRIER, "shared_memory_barrier", OPC_CONTROL, "", "wait_async_ops tensor_wait") \
	X(OP_WORKGROUP_BARRIER, "workgroup_barrier", OPC_CONTROL, "", "") \
	X(OP_MEMORY_COUNTER_WAIT_BARRIER, "memory_counter_wait_barrier", OPC_CONTROL, "", "load store ds exp") \
	X(OP_MEMORY_COUNTER_WAIT, "memory_counter_wait", OPC_CONTROL, "", "load store ds exp") \
	X(OP_SET_WAVE_PRIO, "set_wave_prio", OPC_CONTROL, "", "priority") \
	X(OP_SCHEDULING_BARRIER, "scheduling_barrier", OPC_CONTROL, "", "operations") \
	X(OP_SCHEDULING_GROUP_BARRIER, "scheduling_group_barrier", OPC_CONTROL, "", "instructions sync_id") \
	X(OP_ABS, "abs", OPC_UNARY, "arg", "") \
	X(OP_NEG, "neg", OPC_UNARY, "arg", "") \
	X(OP_EXP, "exp", OPC_UNARY, "arg", "") \
	X(OP_EXP2, "exp2", OPC_UNARY, "arg", "") \
	X(OP_LOG, "log", OPC_UNARY, "arg", "") \
	X(OP_LOG2, "log2", OPC_UNARY, "arg", "") \
	X(OP_LOG10, "log10", OPC_UNARY, "arg", "") \
	X(OP_SQRT, "sqrt", OPC_UNARY, "arg", "") \
	X(OP_RSQRT, "rsqrt", OPC_UNARY, "arg", "") \
	X(OP_RECIPROCAL, "reciprocal", OPC_UNARY, "arg", "") \
	X(OP_ROUND, "round", OPC_UNARY, "arg", "") \
	X(OP_ROUNDEVEN, "roundeven", OPC_UNARY, "arg", "") \
	X(OP_SIN, "sin", OPC_UNARY, "arg", "") \
	X(OP_COS, "cos", OPC_UNARY, "arg", "") \
	X(OP_SINH, "sinh", OPC_UNARY, "arg", "") \
	X(OP_TANH, "tanh", OPC_UNARY, "arg", "") \
	X(OP_TANH_APPROX, "tanh_approx", OPC_UNARY, "arg", "") \
	X(OP_SOFTSIGN, "softsign", OPC_UNARY, "arg", "logit_cap apply_scaling head_dim") \
	X(OP_CBRT, "cbrt", OPC_UNARY, "arg", "") \
	X(OP_INVERT, "invert", OPC_UNARY, "arg", "") \
	X(OP_ADD, "add", OPC_BINARY, "lhs rhs", "") \
	X(OP_SUB, "sub", OPC_BINARY, "lhs rhs", "") \
	X(OP_MUL, "mul", OPC_BINARY, "lhs rhs", "") \
	X(OP_TRUEDIV, "truediv", OPC_BINARY, "lhs rhs", "") \
	X(OP_FLOORDIV, "floordiv", OPC_BINARY, "lhs rhs", "") \
	X(OP_MOD, "mod", OPC_BINARY, "lhs rhs", "") \
	X(OP_MAXIMUM, "maximum", OPC_BINARY, "lhs rhs", "") \
	X(OP_MINIMUM, "minimum", OPC_BINARY, "lhs rhs", "") \
	X(OP_AND, "and_", OPC_BINARY, "lhs rhs", "") \
	X(OP_OR, "or_", OPC_BINARY, "lhs rhs", "") \
	X(OP_POWF, "powf", OPC_BINARY, "lhs rhs", "") \
	X(OP_ATAN2, "atan2", OPC_BINARY, "lhs rhs", "") \
	X(OP_REMF, "remf", OPC_BINARY, "lhs rhs", "") \
	X(OP_EQ, "eq", OPC_COMPARE, "lhs rhs", "") \
	X(OP_NE, "ne", OPC_COMPARE, "lhs rhs", "") \
	X(OP_LT, "lt", OPC_COMPARE, "lhs rhs", "") \
	X(OP_LE, "le", OPC_COMPARE, "lhs rhs", "") \
	X(OP_GT, "gt", OPC_COMPARE, "lhs rhs", "") \
	X(OP_GE, "ge", OPC_COMPARE, "lhs rhs", "") \
	X(OP_SELECT, "select", OPC_SELECT, "cond if_true if_false", "") \
	X(OP_CAST, "cast", OPC_CAST, "arg", "dtype") \
	X(OP_BITCAST, "bitcast", OPC_CAST, "arg", "dtype target_shape") \
	X(OP_BROADCAST, "broadcast", OPC_SHAPE, "arg", "target_shape") \
	X(OP_PERMUTE, "permute", OPC_SHAPE, "arg", "target_shape") \
	X(OP_SUM, "sum", OPC_REDUCE, "", "arg init dim block") \
	X(OP_MAX, "max", OPC_REDUCE, "", "arg init dim block") \
	X(OP_MIN, "min", OPC_REDUCE, "", "arg init dim block") \
	X(OP_CUMSUM, "cumsum", OPC_SCAN, "arg", "dim block") \
	X(OP_APPLY_EXPR, "apply_expr", OPC_INDEX, "", "register params expr dtype") \
	X(OP_EXTRACT, "extract", OPC_EXTRACT, "register", "offset") \
	X(OP_EXTRACT_SLICE, "extract_slice", OPC_EXTRACT, "register", "offset size stride") \
	X(OP_TOPK, "topk", OPC_TOPK, "arg", "k_dim dim")

/* Constraint kinds: X(enum, "json kind", "fields besides kind"). */
#define CONSTRAINT_KINDS(X) \
	X(CON_WORKGROUP, "workgroup", "dim tile workgroup_dim primary iters apply_fn") \
	X(CON_WAVE, "wave", "dim tile wave_id") \
	X(CON_TILING, "tiling", "dim tile induction_var iters start") \
	X(CON_HARDWARE, "hardware", \
		"threads_per_wave waves_per_block mma_type vector_shapes max_bits_per_load") \
	X(CON_ASSUMPTION, "assumption", "expr") \
	X(CON_SYMBOLIC_ALIAS, "symbolic_alias", "source target expr") \
	X(CON_REORDERING, "reordering", "expr workgroup_dim") \
	X(CON_DEVICE, "device", "dim tile device_dim") \
	X(CON_GRID, "grid", "grid_size")

/* MMA types (Wave's MMAType), X(enum, "json name", m, n, k, operand dtype,
 * accumulator dtype, native): native 0 marks Wave's virtual K8/K4 types that
 * decompose into two native instructions. Which chips run which type is the
 * backend's business; the graph accepts them all. The *_F8F6F4 rows are
 * Wave's ScaledMMAType (scaled_mma only, mma_is_scaled): their operand
 * column names f4e2m1fn, the narrowest of the five OCP element types they
 * take (f8e4m3fn, f8e5m2, f6e2m3fn, f6e3m2fn, f4e2m1fn). */
#define MMA_TYPES(X) \
	X(MMA_F32_16x16x16_F16, "F32_16x16x16_F16", 16, 16, 16, DT_F16, DT_F32, 1) \
	X(MMA_F32_32x32x8_F16, "F32_32x32x8_F16", 32, 32, 8, DT_F16, DT_F32, 1) \
	X(MMA_F32_16x16x32_K8_F16, "F32_16x16x32_K8_F16", 16, 16, 32, DT_F16, DT_F32, 0) \
	X(MMA_F32_32x32x16_K8_F16, "F32_32x32x16_K8_F16", 32, 32, 16, DT_F16, DT_F32, 0) \
	X(MMA_I32_16x16x16_I8, "I32_16x16x16_I8", 16, 16, 16, DT_I8, DT_I32, 1) \
	X(MMA_I32_32x32x8_I8, "I32_32x32x8_I8", 32, 32, 8, DT_I8, DT_I32, 1) \
	X(MMA_F32_16x16x32_F8, "F32_16x16x32_F8", 16, 16, 32, DT_F8E4M3FNUZ, DT_F32, 1) \
	X(MMA_F32_32x32x16_F8, "F32_32x32x16_F8", 32, 32, 16, DT_F8E4M3FNUZ, DT_F32, 1) \
	X(MMA_F32_16x16x32_K4_F8, "F32_16x16x32_K4_F8", 16, 16, 32, DT_F8E4M3FNUZ, DT_F32, 0) \
	X(MMA_F32_32x32x16_K4_F8, "F32_32x32x16_K4_F8", 32, 32, 16, DT_F8E4M3FNUZ, DT_F32, 0) \
	X(MMA_I32_16x16x32_I8, "I32_16x16x32_I8", 16, 16, 32, DT_I8, DT_I32, 1) \
	X(MMA_I32_32x32x16_I8, "I32_32x32x16_I8", 32, 32, 16, DT_I8, DT_I32, 1) \
	X(MMA_F32_16x16x32_F16, "F32_16x16x32_F16", 16, 16, 32, DT_F16, DT_F32, 1) \
	X(MMA_F32_32x32x16_F16, "F32_32x32x16_F16", 32, 32, 16, DT_F16, DT_F32, 1) \
	X(MMA_F32_16x16x32_BF16, "F32_16x16x32_BF16", 16, 16, 32, DT_BF16, DT_F32, 1) \
	X(MMA_F32_32x32x16_BF16, "F32_32x32x16_BF16", 32, 32, 16, DT_BF16, DT_F32, 1) \
	X(MMA_F32_16x16x128_F8F6F4, "F32_16x16x128_F8F6F4", 16, 16, 128, DT_F4E2M1FN, DT_F32, 1) \
	X(MMA_F32_32x32x64_F8F6F4, "F32_32x32x64_F8F6F4", 32, 32, 64, DT_F4E2M1FN, DT_F32, 1) \
	X(MMA_GENERIC_DOT, "GenericDot", 0, 0, 0, DT_F16, DT_F32, 0) /* shape: GenericDot (graph.h) */

/* Address spaces of Memory arguments: X(enum, "json name", "Wave's name"). */
#define ADDR_SPACES(X) \
	X(AS_GLOBAL, "global", "GLOBAL_ADDRESS_SPACE") \
	X(AS_SHARED, "shared", "SHARED_ADDRESS_SPACE")

#endif
