"""Wave's wave_lang.kernel.wave.templates.speculative_decoding, written for wavecc's tracer.

get_speculative_sampling_kernel(batch_size, num_speculative_tokens, threshold_acc, threshold_single,
num_draft_tokens, vocab_size, seq_len) returns (kernel, hyperparams, dynamic_symbols) as Wave's does: one workgroup
per batch row walks its draft tree (an outer loop over the speculative steps J, an inner loop over the siblings of
the current node, CUR_INDEX, read from retrieve_next_token and retrieve_next_sibling), accepting a token when the
coin is at most the accumulated target probability over threshold_acc or its probability reaches
threshold_single, and then samples the bonus token from relu(target - draft) (the first token whose running sum
is positive, else the last one; Wave's kernel's rule).

What differs from Wave's kernel: the inner loop's axis is a carried value read from memory, which nothing in its
condition bounds, so it states `max_trips=NUM_DRAFT_TOKENS` (a walk of a well-formed tree of that many nodes never
needs more; docs/kernel-format.md, "A carried axis with max_trips"); the outer loop starts at the index 1 (Wave's
`Register[BATCH_SIZE](1)`, a register of ones); the unused `threshold_dist_u` is left out. The symbols the kernel
sets from read values (DRAFT_TOKEN_ID, CUR_PROB_OFFSET, ...) are its dynamic symbols, as the tracer makes them.
get_speculative_decoding_kernel is Wave's earlier name.
"""
import sympy

from ... import lang as tkl
from ... import wave as tkw
from ...lang.global_symbols import GET_ITER_ARG, GLOBAL_ADDRESS_SPACE, SHARED_ADDRESS_SPACE


def get_speculative_sampling_kernel(batch_size, num_speculative_tokens, threshold_acc, threshold_single,
                                    num_draft_tokens, vocab_size, seq_len):
    CUR_INDEX, J = sympy.Symbol("CUR_INDEX"), sympy.Symbol("J")
    S = tkl.sym
    B, ND, NS, V, SEQ = S.BATCH_SIZE, S.NUM_DRAFT_TOKENS, S.NUM_SPECULATIVE_TOKENS, S.VOCAB_SIZE, S.SEQ_LEN
    DRAFT_TOKEN_ID, CUR_PROB_OFFSET = S.DRAFT_TOKEN_ID, S.CUR_PROB_OFFSET
    LAST_ACC, NUM_ACC, LAST_OFFSET, LAST_IDX = (S.LAST_ACCEPTED_RETRIEVE_IDX, S.NUM_ACCEPTED_TOKENS, S.LAST_OFFSET,
                                               S.LAST_IDX)
    BLOCK_B, BLOCK_V = S.BLOCK_BATCH_SIZE, S.BLOCK_VOCAB_SIZE
    ADDRESS_SPACE, GLOBAL_0 = S.ADDRESS_SPACE, S.GLOBAL_ADDRESS_SPACE

    hyperparams = {ADDRESS_SPACE: SHARED_ADDRESS_SPACE, GLOBAL_0: GLOBAL_ADDRESS_SPACE, B: batch_size,
                   ND: num_draft_tokens, NS: num_speculative_tokens, SEQ: seq_len, V: vocab_size, BLOCK_B: 1,
                   S.BLOCK_NUM_DRAFT_TOK: 1, BLOCK_V: vocab_size}
    constraints = [
        tkw.HardwareConstraint(threads_per_wave=64, vector_shapes={ND: 0, J: 0, CUR_INDEX: 0, B: 0, V: BLOCK_V,
                                                                   NS: num_speculative_tokens}),
        tkw.WorkgroupConstraint(V, V, 0), tkw.WorkgroupConstraint(B, BLOCK_B, 1), tkw.WaveConstraint(V, V),
        tkw.TilingConstraint(CUR_INDEX), tkw.TilingConstraint(J)]

    i, j, k = (tkw.IndexMapping.iterator(n) for n in range(3))

    def row_at(at):
        """[B, ND] memory at (row, at) into a [B] register."""
        return tkw.IndexMapping(num_iterators=1, inputs={B: i, ND: at}, outputs={B: i})

    def at_row(out):
        """a [B] register into memory at the row and the given positions."""
        return tkw.IndexMapping(num_iterators=1, inputs={B: i}, outputs=out)

    def slab(nd, v, into):
        """[B, ND, V] memory at (row, nd, v), into a [B, ND, V] register (into) or from one."""
        at = {B: i, ND: nd, V: v}
        whole = {B: i, ND: j, V: k}
        return tkw.IndexMapping(num_iterators=3, inputs=at if into else whole, outputs=whole if into else at)

    def rd1(mem, mapping):
        return tkw.read(mem, elements_per_thread=1, mapping=mapping)

    def wr1(reg, mem, mapping):
        return tkw.write(reg, mem, elements_per_thread=1, mapping=mapping)

    G = GLOBAL_0

    @tkw.wave(constraints)
    def speculative_sampling(
        uniform_samples: tkl.Memory[B, ND, G, tkl.f32],
        uniform_samples_for_final_sampling: tkl.Memory[B, G, tkl.f32],
        target_probs: tkl.Memory[B, ND, V, G, tkl.f32],
        draft_probs: tkl.Memory[B, ND, V, G, tkl.f32],
        candidates: tkl.Memory[B, ND, G, tkl.i32],
        retrieve_index: tkl.Memory[B, ND, G, tkl.i32],
        retrieve_next_token: tkl.Memory[B, ND, G, tkl.i32],
        retrieve_next_sibling: tkl.Memory[B, ND, G, tkl.i32],
        num_spec_tokens: tkl.i32,
        predicts: tkl.Memory[SEQ, G, tkl.i32],
        accept_token_num: tkl.Memory[B, G, tkl.i32],
        accept_index: tkl.Memory[B, NS, G, tkl.i32],
    ):
        one = tkl.Register[B, tkl.i32](1)
        zero = tkl.Register[B, tkl.i32](0)
        zero_f = tkl.Register[B, tkl.f32](0.0)
        zero_3d = tkl.Register[B, ND, V, tkl.f32](0.0)
        t_acc = tkl.Register[B, tkl.f32](threshold_acc)
        t_single = tkl.Register[B, tkl.f32](threshold_single)

        coin0 = rd1(uniform_samples, row_at(sympy.Integer(0)))
        last0 = rd1(retrieve_index, row_at(sympy.Integer(0)))
        wr1(last0, accept_index, at_row({B: i, NS: sympy.Integer(0)}))

        @tkw.iterate(J, start=tkw.scalar(1, tkl.i32), condition=(J < NS) & sympy.Eq(GET_ITER_ARG(6), 0),
                     init_args=[zero, zero, last0, zero, zero_f, coin0, zero])
        def steps(cur, n_acc, last, prob_off, prob_acc, coin, done):
            tkw.set_symbol(CUR_INDEX, cur)
            child = rd1(retrieve_next_token, row_at(CUR_INDEX))

            @tkw.iterate(CUR_INDEX, start=child, condition=(CUR_INDEX >= 0) & sympy.Eq(GET_ITER_ARG(6), 0),
                         init_args=[child, n_acc, last, prob_off, prob_acc, coin, zero], max_trips=ND)
            def siblings(cur, n_acc, last, prob_off, prob_acc, coin, found):
                tkw.set_symbol(CUR_INDEX, cur)
                draft_index = rd1(retrieve_index, row_at(CUR_INDEX))
                token = rd1(candidates, row_at(CUR_INDEX))
                tkw.set_symbol(DRAFT_TOKEN_ID, token)
                tkw.set_symbol(CUR_PROB_OFFSET, prob_off)
                p_single = rd1(target_probs, tkw.IndexMapping(
                    num_iterators=1, inputs={B: i, ND: CUR_PROB_OFFSET, V: DRAFT_TOKEN_ID}, outputs={B: i}))
                prob_acc = prob_acc + p_single
                accept = (coin <= prob_acc / t_acc) | (p_single >= t_single)
                reject = ~accept
                prob_acc = tkw.select(accept, zero_f, prob_acc)
                prob_off = tkw.select(accept, cur, prob_off)
                coin = tkw.select(accept, rd1(uniform_samples, row_at(CUR_INDEX)), coin)
                tkw.set_symbol(LAST_ACC, last)
                n_acc = tkw.select(accept, n_acc + one, n_acc)
                tkw.set_symbol(NUM_ACC, n_acc)

                @tkw.conditional(accept)
                def take():
                    wr1(token, predicts, at_row({SEQ: LAST_ACC}))
                    wr1(draft_index, accept_index, at_row({B: i, NS: NUM_ACC}))

                @tkw.conditional(reject)
                def keep_target():
                    p = tkw.read(target_probs, elements_per_thread=1, mapping=slab(CUR_INDEX, DRAFT_TOKEN_ID, True))
                    tkw.write(p, draft_probs, elements_per_thread=1, mapping=slab(CUR_INDEX, DRAFT_TOKEN_ID, False))

                last = tkw.select(accept, draft_index, last)
                cur = tkw.select(reject, rd1(retrieve_next_sibling, row_at(CUR_INDEX)), cur)
                found = tkw.select(accept, one, found)
                tkw.set_symbol(CUR_INDEX, cur)
                return cur, n_acc, last, prob_off, prob_acc, coin, found

            cur, n_acc, last, prob_off, prob_acc, coin, found = siblings
            tkw.set_symbol(J, tkw.apply_expr(tkw.self_index(J, tkl.i32), lambda x: x + 1))
            done = tkw.select(cur < zero, one, done)
            return cur, n_acc, last, prob_off, prob_acc, coin, done

        cur, n_acc, last, prob_off, prob_acc, coin, done = steps
        tkw.write(n_acc, accept_token_num, elements_per_thread=1)

        # the bonus token: sampled from relu(target - draft) at the last accepted node
        tkw.set_symbol(LAST_OFFSET, prob_off)
        tkw.set_symbol(LAST_IDX, last)
        q = tkw.read(target_probs, mapping=slab(LAST_OFFSET, k, True))
        p = tkw.read(draft_probs, mapping=slab(LAST_OFFSET, k, True))
        nst = tkw.broadcast(num_spec_tokens, target_shape=[B])
        keep = tkw.cast(n_acc != (nst - one), tkw.i1)
        p = tkw.select(tkw.broadcast(keep, target_shape=[B, ND, V]), p, zero_3d)
        relu = tkw.maximum(q - p, zero_3d)
        cdf = tkw.cumsum(relu, dim=V)
        pad = tkl.Register[B, ND, V, tkl.i32](V - 1)
        token_idx = tkw.broadcast(tkw.self_index(V, dtype=tkl.i32), target_shape=[B, ND, V])
        first = tkw.min(tkw.select(cdf > zero_3d, token_idx, pad), dim=V)
        tkw.write(first, predicts, mapping=tkw.IndexMapping(num_iterators=2, inputs={B: i, ND: j},
                                                             outputs={SEQ: LAST_IDX}))

    return speculative_sampling, hyperparams, []


get_speculative_decoding_kernel = get_speculative_sampling_kernel  # Wave's earlier name
