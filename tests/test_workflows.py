"""The workflows: project code only through nox sessions, locked installs, and the review's hardening.

``../shared/reviews/2026-11-24-workflows.md`` found a publishing step that could not run (it called
``python3 -m learnjax_site.commands.record`` with an interpreter that had only nox) and no test could see it.
Here every ``run:`` of both workflows is read command by command: the project's code may run only
through ``nox -s SESSION`` of a session that exists (or ``.ci/run``, whose own commands are read the
same way), and the job that pushes the notebooks is run for real against a local repository.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
FIXTURES = ROOT / "tests" / "fixtures" / "workflows"
WORKFLOW_FILES = sorted(WORKFLOWS.glob("*.yml"))

# The first release of each action that runs on node24 (read from each release's action.yml).
FIRST_NODE24_MAJOR = {"actions/checkout": 5, "actions/setup-python": 6, "actions/upload-artifact": 6,
                      "actions/download-artifact": 7, "actions/deploy-pages": 5,
                      "actions/upload-pages-artifact": 4}  # v4.0.0: a composite that pins upload-artifact


def load_noxfile():
    """noxfile.py as a module; importing it registers its sessions with nox."""
    spec = importlib.util.spec_from_file_location("noxfile_under_test", ROOT / "noxfile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def noxfile():
    return load_noxfile()


@pytest.fixture(scope="module")
def sessions(noxfile) -> set[str]:
    import nox.registry

    return set(nox.registry.get())


def load_workflow(path: Path) -> dict:
    workflow = yaml.safe_load(path.read_text(encoding="utf8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads the key `on` as True
    return workflow


def run_scripts(workflow: dict) -> list[tuple[str, str]]:
    """``(job, script)`` for every step of every job that has a ``run:``."""
    return [(job_name, step["run"]) for job_name, job in workflow["jobs"].items()
            for step in job.get("steps", []) if "run" in step]


def commands(script: str) -> list[list[str]]:
    """The simple commands of a shell script, as words: split at newlines, ``&&``, ``||``, ``;``, ``|``.

    >>> commands('FOO=1 nox -s docs && echo "a;b" | tee x\\n( cd y; ls )')
    [['FOO=1', 'nox', '-s', 'docs'], ['echo', 'a;b'], ['tee', 'x'], ['cd', 'y'], ['ls']]
    """
    found = []
    for line in script.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        try:
            words = list(lexer)
        except ValueError:  # an unclosed quote: read the line as it stands
            words = line.split()
        command = []
        for word in words + [";"]:
            if word and set(word) <= set(";&|()"):
                if command:
                    found.append(command)
                command = []
            else:
                command.append(word)
    return found


def project_code_calls(script: str, sessions: set[str]) -> list[str]:
    """The commands of ``script`` that run the project's code other than through an existing nox session."""
    found = []
    for words in commands(script):
        line = " ".join(words)
        if any(marker in line for marker in ("learnjax_site", "docs/_ext", "examples/")):
            found.append(line)
            continue
        while words and (re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]) or words[0] in ("sudo", "exec", "env")):
            words = words[1:]
        if not words:
            continue
        program, arguments = words[0], words[1:]
        name = Path(program).name
        if name == "nox":
            named = [arguments[i + 1] for i, word in enumerate(arguments[:-1])
                     if word in ("-s", "--session", "--sessions")]
            if not named or any(session not in sessions for session in named):
                found.append(f"{line}  (names no existing nox session)")
        elif name in ("bash", "sh") and arguments and (ROOT / arguments[0]).is_file():
            if project_code_calls((ROOT / arguments[0]).read_text(encoding="utf8"), sessions):
                found.append(f"{line}  ({arguments[0]} runs project code outside nox)")
        elif re.fullmatch(r"python(3(\.\d+)?)?", name):
            if arguments[:2] not in (["-m", "pip"], ["-m", "venv"]) and arguments != ["--version"]:
                found.append(line)
        elif program.startswith("./") or (ROOT / program).is_file():
            found.append(line)
    return found


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda path: path.name)
def test_every_run_line_calls_project_code_through_a_nox_session(path, sessions):
    for job, script in run_scripts(load_workflow(path)):
        assert project_code_calls(script, sessions) == [], f"{path.name}, job {job}"


def test_a_planted_record_line_is_caught(sessions):
    """The fixture is pages.yml's build job as it was: the record step called the module directly."""
    planted = load_workflow(FIXTURES / "planted-record.yml")
    found = [call for _, script in run_scripts(planted) for call in project_code_calls(script, sessions)]
    assert found == ["PYTHONPATH=docs/_ext python3 -m learnjax_site.commands.record --out _record "
                     "--require-backend gpu",
                     "nox -s no-such-session  (names no existing nox session)",
                     "bash .ci/gpu-run --budget 500  (.ci/gpu-run runs project code outside nox)"]


def test_the_sessions_the_workflows_need_exist(sessions):
    assert {"docs", "tests", "publish", "browser", "lint", "lock",
            "gpu-prepare", "gpu-import", "gpu-dryrun"} <= sessions


# --- locked installs -----------------------------------------------------------------------------

@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda path: path.name)
def test_every_install_is_hash_checked_from_the_lock(path):
    for job, script in run_scripts(load_workflow(path)):
        for words in commands(script):
            if "pip" in words and "install" in words:
                assert "--require-hashes" in words and "-r" in words, f"{path.name}, job {job}: {' '.join(words)}"
                assert words[words.index("-r") + 1].startswith("requirements/")


def test_ci_checks_the_lock_and_runs_the_publishing_session():
    ci_run = [" ".join(words) for words in commands((ROOT / ".ci" / "run").read_text(encoding="utf8"))]
    assert "nox -s lock -- --check" in ci_run
    assert "nox -s publish" in ci_run
    assert ci_run.index("nox -s lock -- --check") < ci_run.index("nox -s docs")


def test_every_locked_group_is_exported(noxfile):
    exported = {path.stem for path in (ROOT / "requirements").glob("*.txt")}
    assert exported == set(noxfile.LOCKED_GROUPS) | {"gpu-carry"}
    for group in [*noxfile.LOCKED_GROUPS, "gpu-carry"]:
        text = (ROOT / "requirements" / f"{group}.txt").read_text(encoding="utf8")
        assert noxfile.FINGERPRINT.search(text).group(1) == noxfile.groups_fingerprint(), group
        requirements = [line for line in text.splitlines() if line[:1].isalnum()]
        assert requirements and all("==" in line for line in requirements), group
        assert text.count("--hash=sha256:") >= len(requirements), group


class Stop(Exception):
    pass


class FakeSession:
    def error(self, message):
        raise Stop(message)


def test_a_session_stops_naming_nox_s_lock_when_pyproject_changed(noxfile, monkeypatch):
    assert noxfile.locked_requirements(FakeSession(), "docs").name == "docs.txt"
    groups = {**noxfile.PYPROJECT["dependency-groups"], "docs": ["sphinx"]}
    monkeypatch.setitem(noxfile.PYPROJECT, "dependency-groups", groups)
    with pytest.raises(Stop, match=r"pyproject.toml and the lock disagree\): run nox -s lock"):
        noxfile.locked_requirements(FakeSession(), "docs")


def test_one_jax_everywhere_the_gpu_machines_jax():
    """Every group runs jax 0.11.2 on Python 3.12, as the GPU machines do; the gpu group adds CUDA 13's plugin."""
    assert noxfile_pyproject()["project"]["requires-python"] == "==3.12.*"
    for group in ("lessons", "docs", "test", "gpu", "gpu-image"):
        text = (ROOT / "requirements" / f"{group}.txt").read_text(encoding="utf8")
        assert re.search(r"^jax==0\.11\.2 \\$", text, re.MULTILINE), group
        assert re.search(r"^jaxlib==0\.11\.2 \\$", text, re.MULTILINE), group
    gpu, docs = ((ROOT / "requirements" / f"{g}.txt").read_text(encoding="utf8") for g in ("gpu", "docs"))
    assert re.search(r"^jax-cuda13-plugin==0\.11\.2 ;", gpu, re.MULTILINE)
    assert "jax-cuda13-plugin" not in docs


def noxfile_pyproject() -> dict:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf8"))


def test_what_a_gpu_run_carries_leaves_out_the_image_and_sphinx(noxfile):
    """gpu-carry.txt: the kernel side of the lessons group, less what the image has and what only Sphinx uses."""
    text = (ROOT / "requirements" / "gpu-carry.txt").read_text(encoding="utf8")
    carried = {noxfile.distribution_name(line) for line in text.splitlines() if line[:1].isalnum()}
    assert {"ipykernel", "nbclient", "myst-nb", "docutils", "koreanize-matplotlib", "flax", "optax"} <= carried
    assert not carried & set(noxfile.gpu_image_packages())
    assert not carried & set(noxfile.NOT_ON_THE_GPU)
    assert " ; " not in text  # markers were evaluated for the GPU machine's Linux CPython 3.12


def test_the_gpu_image_group_names_only_what_the_image_has(noxfile):
    listed = (ROOT / "tools" / "gpu-image" / "packages.txt").read_text(encoding="utf8").splitlines()
    image = {noxfile.distribution_name(name) for name in listed if name and not name.startswith("#")}
    assert set(noxfile.gpu_image_packages()) <= image
    assert {"jax", "jaxlib", "numpy", "matplotlib", "scikit-learn"} <= set(noxfile.gpu_image_packages())


def test_exports_for_another_machine_keep_only_its_entries(noxfile):
    exported = ("# head\n"
                "a==1 ; python_full_version < '3.12' \\\n    --hash=sha256:aa\n"
                "a==2 ; python_full_version >= '3.12' \\\n    --hash=sha256:bb\n"
                "b==3 \\\n    --hash=sha256:cc\n"
                "c==4 ; sys_platform == 'win32' \\\n    --hash=sha256:dd\n")
    assert noxfile.for_target(exported) == "# head\na==2 \\\n    --hash=sha256:bb\nb==3 \\\n    --hash=sha256:cc\n"


def test_python_3_12_is_found_or_the_sessions_say_how_to_get_it(noxfile, monkeypatch):
    assert noxfile.PYTHON and noxfile.find_python() == noxfile.PYTHON
    ran = subprocess.run([noxfile.PYTHON, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True,
                         text=True)
    assert ran.stdout.strip() == "(3, 12)"
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setenv("PYENV_ROOT", "/nonexistent")
    assert noxfile.find_python("3.99") is None
    assert "apt-get install python3.12" in noxfile.NO_PYTHON and "pyenv install 3.12" in noxfile.NO_PYTHON


# --- hardening (the review's findings, by number) ------------------------------------------------

@pytest.fixture(scope="module")
def pages():
    return load_workflow(WORKFLOWS / "pages.yml")


@pytest.fixture(scope="module")
def ci():
    return load_workflow(WORKFLOWS / "ci.yml")


def test_publishing_jobs_run_for_main_only(pages):  # 5
    for name, job in pages["jobs"].items():
        assert "github.ref == 'refs/heads/main'" in job.get("if", ""), name


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda path: path.name)
def test_every_job_has_a_timeout(path):  # 12
    for name, job in load_workflow(path)["jobs"].items():
        assert 0 < job["timeout-minutes"] <= 90, name


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda path: path.name)
def test_every_action_is_a_node24_release_pinned_by_sha(path):  # 9, 10
    uses = re.findall(r"uses: (\S+)@(\S+)(?:\s+#\s*v(\d+)\.\d+\.\d+)?", path.read_text(encoding="utf8"))
    assert uses
    for action, ref, major in uses:
        assert re.fullmatch(r"[0-9a-f]{40}", ref), f"{action}@{ref}: pin a full commit SHA"
        assert major, f"{action}: say the release in a comment (# vX.Y.Z)"
        assert int(major) >= FIRST_NODE24_MAJOR[action], f"{action} v{major} predates node24"


def test_the_notebooks_job_waits_for_the_deploy(pages):  # 12
    assert set(pages["jobs"]["notebooks"]["needs"]) == {"build", "deploy"}


def test_the_self_hosted_runner_neither_downloads_python_nor_configures_pages(pages):  # 11, 14
    uses = [step.get("uses", "") for step in pages["jobs"]["build"]["steps"]]
    assert not any("setup-python" in use or "configure-pages" in use for use in uses)


def test_ci_tests_pushes_to_main_too(ci):  # 16
    assert ci["on"]["push"]["branches"] == ["main"]
    assert "pull_request" in ci["on"]


def test_dependabot_updates_the_actions_and_the_lock():  # 3, 10
    dependabot = yaml.safe_load((ROOT / ".github" / "dependabot.yml").read_text(encoding="utf8"))
    assert {update["package-ecosystem"] for update in dependabot["updates"]} == {"github-actions", "uv"}


# --- the notebooks job, run for real against a local repository (4, 6, 7) ---------------------------

def notebooks_job(pages, tmp_path: Path, branch: str, artifact_files: dict[str, str]) -> subprocess.CompletedProcess:
    """Run the notebooks job's script with an artifact of ``artifact_files``, pushing to a bare repository."""
    (script,) = [step["run"] for step in pages["jobs"]["notebooks"]["steps"] if "run" in step]
    artifact = tmp_path / "artifact"
    for name, text in artifact_files.items():
        (artifact / name).parent.mkdir(parents=True, exist_ok=True)
        (artifact / name).write_text(text, encoding="utf8")
    subprocess.run(["git", "init", "--quiet", "--bare", str(tmp_path / "owner" / "repo.git")], check=True)
    environment = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_TOKEN": "token-never-shown",
                   "DEFAULT_BRANCH": "main", "ARTIFACT": str(artifact), "TREE": str(tmp_path / "tree"),
                   "LEARNJAX_COLAB_BRANCH": branch, "GITHUB_SHA": "0" * 40,
                   "GITHUB_SERVER_URL": f"file://{tmp_path}", "GITHUB_REPOSITORY": "owner/repo"}
    return subprocess.run(["bash", "-c", script], env=environment, capture_output=True, text=True, timeout=60)


def pushed_files(tmp_path: Path, branch: str) -> list[str]:
    listing = subprocess.run(["git", "--git-dir", str(tmp_path / "owner" / "repo.git"), "ls-tree", "-r",
                              "--name-only", branch], capture_output=True, text=True, check=True)
    return listing.stdout.split()


def test_the_notebooks_job_pushes_only_notebooks(pages, tmp_path):
    ran = notebooks_job(pages, tmp_path, "notebooks", {"ko/jit/timing.ipynb": "{}", "en/jit/timing.ipynb": "{}",
                                                        "ko/notes.txt": "not a notebook"})
    assert ran.returncode == 0, ran.stderr
    assert pushed_files(tmp_path, "notebooks") == ["en/jit/timing.ipynb", "ko/jit/timing.ipynb"]
    assert "token-never-shown" not in ran.stdout + ran.stderr


def test_the_notebooks_job_refuses_dotfiles(pages, tmp_path):
    ran = notebooks_job(pages, tmp_path, "notebooks", {"ko/a.ipynb": "{}", ".git/config": "[core]\nfsmonitor = x"})
    assert ran.returncode != 0 and "dotfiles in the notebooks artifact" in ran.stdout
    assert not (tmp_path / "tree").exists()


def test_the_notebooks_job_refuses_the_default_branch(pages, tmp_path):
    ran = notebooks_job(pages, tmp_path, "main", {"ko/a.ipynb": "{}"})
    assert ran.returncode != 0 and "refusing to force-push over the default branch" in ran.stdout


def test_the_token_never_travels_in_a_url(pages):  # 7
    (script,) = [step["run"] for step in pages["jobs"]["notebooks"]["steps"] if "run" in step]
    assert "@${GITHUB_SERVER_URL" not in script and "x-access-token:$" not in script
    assert "credential.helper" in script


# --- .ci/gpu-run parses its arguments and refuses a tree without what it carries ----------------

@pytest.mark.parametrize("arguments, code, message", [
    (["--help"], 0, "usage: OUT=FOLDER bash .ci/gpu-run"),
    (["--budget", "60"], 2, "no .gpu-run/: run nox -s gpu-prepare"),
    (["-v"], 2, "unknown argument -v"),
])
def test_gpu_run_parses_its_arguments(arguments, code, message, tmp_path):
    """Run from a copy in an empty checkout, so that a .gpu-run/ of the real one is never used."""
    script = tmp_path / ".ci" / "gpu-run"
    script.parent.mkdir()
    shutil.copyfile(ROOT / ".ci" / "gpu-run", script)
    ran = subprocess.run(["bash", str(script), *arguments], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "OUT": str(tmp_path / "out")})
    assert ran.returncode == code
    assert message in ran.stdout + ran.stderr
