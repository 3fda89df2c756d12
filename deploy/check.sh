#!/bin/sh
# check.sh checks the deploy manifests without a cluster: that each YAML
# file parses (the sweep Job template once rendered for a pool) and has
# the structure deploy/README.md describes, and that sweep-job.sh is valid
# sh. It needs python3 with PyYAML (the module has no YAML parser and
# adds no dependency for one); without them it says so and exits 0.
# Run it from anywhere: sh deploy/check.sh
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
sh -n "$dir/sweep-job.sh"
if ! python3 -c 'import yaml' 2>/dev/null; then
	echo "deploy/check.sh: python3 with PyYAML not found; YAML not checked" >&2
	exit 0
fi
exec python3 - "$dir" <<'PY'
import sys, yaml

d = sys.argv[1]
failed = []

def check(cond, what):
    if not cond:
        failed.append(what)

def load(name, subst=None):
    text = open(f"{d}/{name}").read()
    if subst:
        text = text.replace("@POOL@", subst)
    docs = list(yaml.safe_load_all(text))
    check(len(docs) == 1, f"{name}: want one document, got {len(docs)}")
    return docs[0]

def pod(job):
    return job["spec"]["template"]["spec"]

def guaranteed(name, c):
    r = c.get("resources", {})
    check(r.get("requests") and r.get("requests") == r.get("limits"),
          f"{name}: container {c['name']}: requests must equal limits (Guaranteed QoS)")

pvc = load("k8s/results-pvc.yaml")
check(pvc["kind"] == "PersistentVolumeClaim" and "ReadWriteMany" in pvc["spec"]["accessModes"],
      "k8s/results-pvc.yaml: want a ReadWriteMany PersistentVolumeClaim")
claim = pvc["metadata"]["name"]

load("k8s/sweep-job.yaml")  # the template itself parses
job = load("k8s/sweep-job.yaml", "spr")
s, p = job["spec"], pod(job)
check(job["kind"] == "Job" and s["completionMode"] == "Indexed", "sweep-job.yaml: want an Indexed Job")
check(s["completions"] >= 1 and s["parallelism"] <= s["completions"], "sweep-job.yaml: completions/parallelism")
check(p["restartPolicy"] == "Never", "sweep-job.yaml: restartPolicy Never (the Job retries per index)")
check(p["nodeSelector"].get("tunelab.dev/pool") == "spr", "sweep-job.yaml: nodeSelector on the pool label")
check("@POOL@" not in yaml.safe_dump(job), "sweep-job.yaml: placeholder left after rendering")
anti = p["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
check(anti[0]["topologyKey"] == "kubernetes.io/hostname", "sweep-job.yaml: one sweep per node")
c = p["containers"][0]
check(c["command"] == ["/usr/local/bin/sweep-job.sh"], "sweep-job.yaml: runs sweep-job.sh")
check(c["resources"]["limits"]["cpu"] == "2", "sweep-job.yaml: whole CPUs for the static CPU manager")
guaranteed("sweep-job.yaml", c)
check({v["name"] for v in c["env"]} >= {"POOL", "NODE_NAME", "RESULTS"}, "sweep-job.yaml: env POOL, NODE_NAME, RESULTS")
check(p["volumes"][0]["persistentVolumeClaim"]["claimName"] == claim, "sweep-job.yaml: volume is the results claim")
check(c["volumeMounts"][0]["mountPath"] == "/results", "sweep-job.yaml: results at /results")

merge = load("k8s/merge-job.yaml")
mc = pod(merge)["containers"][0]
script = " ".join(mc["args"])
check("tunelab report" in script and "tunelab export" in script and "merged/fleet" in script, "merge-job.yaml: report, export and the files for results/fleet")
check(pod(merge)["volumes"][0]["persistentVolumeClaim"]["claimName"] == claim, "merge-job.yaml: volume is the results claim")
guaranteed("merge-job.yaml", mc)

wf = load("ci/github-actions.yml")
jobs = wf["jobs"]
check(True in wf or "on" in wf, "github-actions.yml: no trigger")  # PyYAML reads the key on as True
check(jobs["sweep"]["strategy"]["fail-fast"] is False and jobs["sweep"]["strategy"]["matrix"]["include"],
      "github-actions.yml: a matrix of runners that does not fail fast")
runs = " ".join(st.get("run", "") for st in jobs["sweep"]["steps"])
check("tunelab sweep" in runs, "github-actions.yml: sweep step")
check(any(st.get("uses", "").startswith("actions/upload-artifact") for st in jobs["sweep"]["steps"]), "github-actions.yml: uploads results")
check(jobs["merge"]["needs"] == "sweep", "github-actions.yml: merge needs the sweeps")
mruns = " ".join(st.get("run", "") for st in jobs["merge"]["steps"])
check("tunelab export --fleet results/fleet" in mruns and "tunelab report" in mruns, "github-actions.yml: merge runs report and rebuilds the table from the fleet")
check(any(st.get("uses", "").startswith("actions/download-artifact") for st in jobs["merge"]["steps"]), "github-actions.yml: downloads results")

for f in failed:
    print("deploy/check.sh:", f, file=sys.stderr)
if failed:
    sys.exit(1)
print("deploy/check.sh: 4 YAML files ok")
PY
