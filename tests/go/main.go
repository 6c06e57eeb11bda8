// main.go — a Go gRPC client (grpc-go, as Curio's lib/cuzk uses it) against the real
// cuzkd, built offline from proto/cuzk/v1/proving.proto by run_go_client.sh. It makes
// Curio's calls and checks what a Go client sees:
//   GetStatus under a 5 s deadline;
//   Prove of a synthetic job, and of each Filecoin kind from 2 KiB inputs shaped as Curio
//     sends them (PoRep: the C1 output; WindowPoSt / WinningPoSt: registered proof,
//     randomness and per-sector bincode vanilla proofs; SnapDeals: registered proof, the
//     three commitments and bincode partition proofs). With -prove each must complete with
//     a 192-byte proof; without, the daemon has no keys and must refuse each only for
//     the missing parameters of its 2 KiB circuit (NOT_FOUND), after every input check
//     passed. A C1 output with one Merkle leaf changed: INVALID_ARGUMENT (a code Curio
//     does not retry);
//   a deadline that expires (DEADLINE_EXCEEDED, promptly; the job goes on, and the same
//     request_id finds it again, as a retrying Curio would, to cancel it), a client-side
//     cancel (Canceled) and CancelProof of a running job (AwaitProof then says CANCELLED);
//   a 64 MiB message (answered by the engine, not the transport), one over the daemon's
//     256 MiB limit (RESOURCE_EXHAUSTED from the server) and one over the client's own;
//   the TCP listener's shared token (UNAUTHENTICATED without it).
// Every reply must unpack (grpc-go refuses strings that are not UTF-8). Exit 0 when all
// hold; each failure is printed.
//   usage: goclient -addr unix:///path -tcp HOST:PORT -token T -inputs DIR [-prove]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "cuzk.test/cuzkv1"
)

const maxMsg = 256 << 20 // what Curio's client allows both ways

var failures int

func fail(format string, a ...interface{}) {
	failures++
	fmt.Printf("FAIL "+format+"\n", a...)
}

func ok(format string, a ...interface{}) { fmt.Printf("ok   "+format+"\n", a...) }

// tokenCreds sends the shared token as Curio would, over an insecure channel.
type tokenCreds string

func (t tokenCreds) GetRequestMetadata(ctx context.Context, uri ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(t)}, nil
}
func (t tokenCreds) RequireTransportSecurity() bool { return false }

func dial(addr string, extra ...grpc.DialOption) pb.ProvingEngineClient {
	opts := append([]grpc.DialOption{grpc.WithInsecure(), grpc.WithBlock(),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMsg), grpc.MaxCallSendMsgSize(maxMsg))},
		extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := grpc.DialContext(ctx, addr, opts...)
	if err != nil {
		fmt.Printf("FAIL dial %s: %v\n", addr, err)
		os.Exit(1)
	}
	return pb.NewProvingEngineClient(conn)
}

func code(err error) codes.Code { return status.Code(err) }

func readFile(dir, name string) []byte {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		fail("input %s: %v", name, err)
	}
	return b
}

// fields reads DIR/fields ("name value" lines) and the binary files beside it.
func request(dir string) *pb.SubmitProofRequest {
	r := &pb.SubmitProofRequest{}
	text := string(readFile(dir, "fields"))
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		kv := strings.Fields(line)
		if len(kv) != 2 {
			continue
		}
		v, _ := strconv.ParseUint(kv[1], 10, 64)
		switch kv[0] {
		case "kind":
			r.ProofKind = pb.ProofKind(v)
		case "registered_proof":
			r.RegisteredProof = v
		case "sector_size":
			r.SectorSize = v
		case "sector_number":
			r.SectorNumber = v
		case "miner_id":
			r.MinerId = v
		case "partition_index":
			r.PartitionIndex = uint32(v)
		case "vanilla_proofs":
			for i := uint64(0); i < v; i++ {
				r.VanillaProofs = append(r.VanillaProofs, readFile(dir, fmt.Sprintf("vanilla.%d.bin", i)))
			}
		}
	}
	for name, dst := range map[string]*[]byte{"vanilla_proof.bin": &r.VanillaProof,
		"randomness.bin": &r.Randomness, "comm_r_old.bin": &r.CommROld,
		"comm_r_new.bin": &r.CommRNew, "comm_d_new.bin": &r.CommDNew} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			*dst = b
		}
	}
	return r
}

func prove(c pb.ProvingEngineClient, r *pb.SubmitProofRequest, timeout time.Duration) (*pb.AwaitProofResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := c.Prove(ctx, &pb.ProveRequest{Submit: r})
	if err != nil {
		return nil, err
	}
	return res.GetResult(), nil
}

func synthetic(log2n, parts uint32, seed uint64) *pb.SubmitProofRequest {
	return &pb.SubmitProofRequest{ProofKind: pb.ProofKind_SYNTHETIC, SyntheticLog2N: log2n,
		SyntheticPartitions: parts, SyntheticSeed: seed}
}

func main() {
	addr := flag.String("addr", "", "cuzkd's unix socket (unix:///path)")
	tcp := flag.String("tcp", "", "cuzkd's TCP listener (HOST:PORT), which needs -token")
	token := flag.String("token", "", "the TCP listener's shared token")
	inputs := flag.String("inputs", "", "the 2 KiB inputs (porep/, wpost/, winning/, snap/)")
	proveAll := flag.Bool("prove", false, "prove the Filecoin kinds (the daemon has dev keys)")
	flag.Parse()
	c := dial(*addr)
	seed := uint64(time.Now().UnixNano() % 1000000)
	fmt.Printf("goclient: synthetic seed %d\n", seed)

	// GetStatus under Curio's 5 s deadline
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	st, err := c.GetStatus(ctx, &pb.GetStatusRequest{})
	cancel()
	if err != nil || len(st.GetGpus()) == 0 {
		fail("GetStatus: %v", err)
	} else {
		ok("GetStatus: %d device(s), %s", len(st.GetGpus()), st.GetGpus()[0].GetName())
	}

	// a synthetic Prove
	if res, err := prove(c, synthetic(8, 1, seed), time.Minute); err != nil ||
		res.GetStatus() != pb.AwaitProofResponse_COMPLETED || len(res.GetProof()) != 192 {
		fail("synthetic Prove: %v %v", err, res)
	} else {
		ok("synthetic Prove: COMPLETED, %d bytes", len(res.GetProof()))
	}

	// each Filecoin kind, Curio-shaped, 2 KiB
	for _, kind := range []string{"porep", "wpost", "winning", "snap"} {
		r := request(filepath.Join(*inputs, kind))
		res, err := prove(c, r, 20*time.Minute)
		switch {
		case *proveAll && err == nil && res.GetStatus() == pb.AwaitProofResponse_COMPLETED &&
			len(res.GetProof()) == 192:
			ok("%s Prove: COMPLETED, 192 bytes (%d ms)", kind, res.GetTotalMs())
		case *proveAll:
			fail("%s Prove: %v %v", kind, err, res)
		case code(err) == codes.NotFound &&
			strings.HasPrefix(status.Convert(err).Message(), "no Filecoin parameters for "):
			ok("%s Prove: every input check passed, refused for the key: %s", kind,
				status.Convert(err).Message())
		default:
			fail("%s Prove: expected NotFound for the missing parameters, got %v %v", kind, err, res)
		}
	}
	// one byte of the first Merkle leaf changed: the path no longer reaches its root
	bad := request(filepath.Join(*inputs, "porep"))
	leaf := regexp.MustCompile(`"leaf":\[([0-9]+)`)
	first := true
	bad.VanillaProof = leaf.ReplaceAllFunc(bad.VanillaProof, func(m []byte) []byte {
		if !first {
			return m
		}
		first = false
		v, _ := strconv.Atoi(string(leaf.FindSubmatch(m)[1]))
		return []byte(fmt.Sprintf(`"leaf":[%d`, (v+1)%256))
	})
	if _, err := prove(c, bad, time.Minute); code(err) != codes.InvalidArgument ||
		!strings.Contains(status.Convert(err).Message(), "does not reach its root") {
		fail("tampered C1: %v, expected InvalidArgument", err)
	} else {
		ok("tampered C1: InvalidArgument: %s", status.Convert(err).Message())
	}

	// a deadline that expires: answered at the deadline, not at the proof; the job goes
	// on, and a retry with the same request_id finds it (here: to cancel it)
	t0 := time.Now()
	long := synthetic(14, 16, seed+1)
	long.RequestId = fmt.Sprintf("go-client-%d", seed)
	if _, err := prove(c, long, 300*time.Millisecond); code(err) != codes.DeadlineExceeded {
		fail("deadline: %v", err)
	} else if d := time.Since(t0); d > 5*time.Second {
		fail("deadline: answered after %v", d)
	} else {
		ok("deadline: DeadlineExceeded after %v", d.Round(time.Millisecond))
	}
	again, err := c.SubmitProof(context.Background(), long)
	if err == nil {
		_, err = c.CancelProof(context.Background(), &pb.CancelProofRequest{JobId: again.GetJobId()})
	}
	if err != nil {
		fail("the deadline's job by its request_id: %v", err)
	}

	// a client-side cancel mid-Prove, then CancelProof of a running job
	ctx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	if _, err := c.Prove(ctx, &pb.ProveRequest{Submit: synthetic(14, 16, seed+2)}); code(err) != codes.Canceled {
		fail("client cancel: %v", err)
	} else {
		ok("client cancel: Canceled")
	}
	sub, err := c.SubmitProof(context.Background(), synthetic(14, 16, seed+3))
	if err != nil {
		fail("SubmitProof: %v", err)
	} else {
		time.Sleep(200 * time.Millisecond)
		if _, err := c.CancelProof(context.Background(), &pb.CancelProofRequest{JobId: sub.GetJobId()}); err != nil {
			fail("CancelProof: %v", err)
		}
		res, err := c.AwaitProof(context.Background(), &pb.AwaitProofRequest{JobId: sub.GetJobId()})
		if err != nil || res.GetStatus() != pb.AwaitProofResponse_CANCELLED {
			fail("AwaitProof after CancelProof: %v %v", err, res)
		} else {
			ok("CancelProof: AwaitProof says CANCELLED")
		}
	}

	// a 64 MiB message reaches the engine (a witness that is not one: its own refusal)
	big := &pb.SubmitProofRequest{ProofKind: pb.ProofKind_GROTH16, Wtns: make([]byte, 64<<20),
		Zkey: []byte("not a zkey")}
	ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	_, err = c.SubmitProof(ctx, big)
	cancel()
	if code(err) != codes.InvalidArgument {
		fail("64 MiB message: %v, expected the engine's InvalidArgument", err)
	} else {
		ok("64 MiB message: answered by the engine: %s", status.Convert(err).Message())
	}
	// over the client's own limit (Curio's 256 MiB): refused before sending
	big.Wtns = make([]byte, maxMsg+1)
	if _, err := c.SubmitProof(context.Background(), big); code(err) != codes.ResourceExhausted {
		fail("over the client's limit: %v", err)
	} else {
		ok("over the client's limit: ResourceExhausted (local)")
	}
	// over the daemon's limit, from a client that allows more: the server refuses it
	loose := dial(*addr, grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(2*maxMsg)))
	ctx, cancel = context.WithTimeout(context.Background(), 2*time.Minute)
	_, err = loose.SubmitProof(ctx, big)
	cancel()
	if code(err) != codes.ResourceExhausted || !strings.Contains(status.Convert(err).Message(), "exceeds") {
		fail("over the daemon's limit: %v", err)
	} else {
		ok("over the daemon's limit: ResourceExhausted from the server: %s", status.Convert(err).Message())
	}
	big = nil

	// TCP: the shared token
	if *tcp != "" {
		open := dial(*tcp)
		ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
		_, err = open.GetStatus(ctx, &pb.GetStatusRequest{})
		cancel()
		if code(err) != codes.Unauthenticated {
			fail("TCP without the token: %v", err)
		} else {
			ok("TCP without the token: Unauthenticated")
		}
		withToken := dial(*tcp, grpc.WithPerRPCCredentials(tokenCreds(*token)))
		ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
		_, err = withToken.GetStatus(ctx, &pb.GetStatusRequest{})
		cancel()
		if err != nil {
			fail("TCP with the token: %v", err)
		} else {
			ok("TCP with the token: GetStatus")
		}
	}

	// still serving
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	_, err = c.GetStatus(ctx, &pb.GetStatusRequest{})
	cancel()
	if err != nil && !errors.Is(err, context.Canceled) {
		fail("GetStatus at the end: %v", err)
	}
	fmt.Printf("goclient: %d failed\n", failures)
	if failures > 0 {
		os.Exit(1)
	}
}
